// Throughput and peak memory of a dataset download (@synth/tabular's renderTable, what GET /datasets/{id}/download
// streams) per format and value form, one core: the stored table (Arrow IPC stream, as ingestion wrote it) is read
// from disk in 256 KiB chunks, as the local blob store reads it, rendered, and its bytes counted and dropped, as a
// response would send them.
//
// Tables: test/fixtures/datasets/diamonds.csv (53,940 rows × 10) and the same rows repeated BENCH_DOWNLOAD_REPEAT (20)
// times (~1.08 M rows, ~52 MB of CSV), which shows whether memory grows with the table. Each measurement runs
// BENCH_ROUNDS (3) times; the median rows/s and MB/s of output (MB = 10^6 bytes) are printed with the peak RSS of
// the process during that format's runs (VmHWM, reset before each format where Linux allows it).
//
// Run: node test/bench/download.bench.ts
import { renderTable, type RenderOptions } from "@synth/tabular"
import { ingestTable } from "@synth/tabular"
import { Effect, Stream } from "effect"
import { createReadStream, createWriteStream, readFileSync, writeFileSync } from "node:fs"
import { once } from "node:events"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const repeat = Number(process.env.BENCH_DOWNLOAD_REPEAT ?? 20)
const CHUNK_BYTES = 256 * 1024
const diamonds = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "datasets", "diamonds.csv")

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const peakMiB = (): number => {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

const resetPeak = (): void => {
  try {
    writeFileSync("/proc/self/clear_refs", "5")
  } catch {
    // Not allowed here: the peak is then the process's so far.
  }
}

const fileStream = (path: string) =>
  Stream.fromAsyncIterable(createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Uint8Array>, (error) => error)

/** Ingests `csv` (a file) into an Arrow IPC file next to it, as the blob store would hold the dataset's table. */
const storeTable = async (csv: string, ipcPath: string): Promise<number> => {
  const { summary, table } = await Effect.runPromise(ingestTable(() => fileStream(csv)))
  const out = createWriteStream(ipcPath)
  await Effect.runPromise(Stream.runForEach(table, (bytes) => Effect.promise(async () => {
    if (!out.write(bytes)) await once(out, "drain")
  })))
  out.end()
  await once(out, "finish")
  return summary.rowCount
}

const downloadOnce = async (ipcPath: string, options: RenderOptions): Promise<{ seconds: number; bytes: number }> => {
  let bytes = 0
  const started = performance.now()
  await Effect.runPromise(Stream.runForEach(renderTable(fileStream(ipcPath), options), (chunk) => Effect.sync(() => {
    bytes += chunk.length
  })))
  return { seconds: (performance.now() - started) / 1000, bytes }
}

const formats: ReadonlyArray<RenderOptions> = [
  { format: "csv", values: "source" },
  { format: "csv", values: "normalised" },
  { format: "json", values: "source" },
  { format: "ndjson", values: "source" },
  { format: "parquet", values: "source" }
]

const main = async () => {
  const dir = await mkdtemp(join(tmpdir(), "download-bench-"))
  try {
    const text = readFileSync(diamonds, "utf8")
    const [header, ...lines] = text.trimEnd().split("\n")
    const large = join(dir, "diamonds-large.csv")
    writeFileSync(large, [header, ...Array.from({ length: repeat }, () => lines).flat()].join("\n") + "\n")
    for (const [label, csv] of [["diamonds", diamonds], [`diamonds x${repeat}`, large]] as const) {
      const ipcPath = join(dir, `${label.replace(/\W/g, "_")}.arrow`)
      const rows = await storeTable(csv, ipcPath)
      for (const options of formats) {
        resetPeak()
        const runs: Array<{ seconds: number; bytes: number }> = []
        for (let round = 0; round < rounds; round++) runs.push(await downloadOnce(ipcPath, options))
        const seconds = median(runs.map((run) => run.seconds))
        const bytes = runs[0]!.bytes
        console.log(JSON.stringify({
          table: label,
          rows,
          format: options.format,
          values: options.values,
          outputMB: +(bytes / 1e6).toFixed(1),
          seconds: +seconds.toFixed(3),
          rowsPerSecond: Math.round(rows / seconds),
          outputMBPerSecond: +(bytes / 1e6 / seconds).toFixed(1),
          peakRssMiB: Math.round(peakMiB())
        }))
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
