// Throughput and peak memory of @synth/tabular's ingest, one core: pass 1 (open + parse + infer), pass 2 (parse
// again + convert + Arrow IPC bytes) and both together through `ingestTable` (the Effect API the upload handler
// uses), each file streamed from disk with fs.createReadStream in 256 KiB chunks, the size the local blob store
// (libs/blobstore/src/localDirectory.ts) reads.
//
// Files: a generated mixed-type CSV of BENCH_INGEST_LARGE_MB (100) and BENCH_INGEST_SMALL_MB (10) MB (fixed seed:
// integers, floats, long floats, ISO and US dates, booleans, quoted strings with commas and doubled quotes, ~3 %
// missing), test/fixtures/datasets/diamonds.csv, and the 10 MB table as a JSON array and as NDJSON.
// Each measurement runs BENCH_ROUNDS (5) times and reports the median MB/s (MB = 10^6 bytes) of wall time and of the
// process's CPU time (steadier on a shared machine), and the spread of wall-time MB/s on stderr. Peak
// RSS is the process's VmHWM, reset before each file through /proc/self/clear_refs where Linux allows it, so it is
// the peak of that file's runs (baseline of this process included: `baselineMiB`).
//
// Run: node test/bench/ingest.bench.ts   (BENCH_INGEST_ONLY=diamonds to run the files whose label contains it)
import { Effect, Stream } from "effect"
import { once } from "node:events"
import { createReadStream, createWriteStream, readFileSync, writeFileSync } from "node:fs"
import { mkdtemp, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { ingestTable } from "@synth/tabular"
import { encodeTable, inferTable, openRecords } from "@synth/tabular/passes"

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const largeMb = Number(process.env.BENCH_INGEST_LARGE_MB ?? 100)
const smallMb = Number(process.env.BENCH_INGEST_SMALL_MB ?? 10)
const only = process.env.BENCH_INGEST_ONLY
const CHUNK_BYTES = 256 * 1024
const diamonds = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "datasets", "diamonds.csv")

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const statusMiB = (field: "VmHWM" | "VmRSS"): number => {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"))
    return match === null ? Number.NaN : Number(match[1]) / 1024
  } catch {
    return Number.NaN
  }
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false where not allowed, and the peak is then the process's. */
const resetPeak = (): boolean => {
  try {
    writeFileSync("/proc/self/clear_refs", "5")
    return true
  } catch {
    return false
  }
}

interface Row {
  readonly id: number
  readonly quantity: string
  readonly price: string
  readonly ratio: string
  readonly signupDate: string
  readonly lastSeen: string
  readonly active: string
  readonly name: string
  readonly comment: string
  readonly category: string
}

const columns = ["id", "quantity", "price", "ratio", "signup_date", "last_seen", "active", "name", "comment", "category"]

/** The same table as upload.bench.ts generates (xorshift32, seed 42), so the numbers compare. */
const generateRows = function*(): Generator<Row> {
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
  let seed = 42
  const random = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
  const maybe = (value: string) => (random() < 0.03 ? "" : value)
  for (let id = 1;; id++) {
    const day = 1 + Math.floor(random() * 28)
    const month = 1 + Math.floor(random() * 12)
    const word = words[Math.floor(random() * words.length)]!
    yield {
      id,
      quantity: maybe(String(Math.floor(random() * 10_000))),
      price: maybe((random() * 1000).toFixed(2)),
      ratio: maybe(String(random())),
      signupDate: maybe(`2023-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`),
      lastSeen: maybe(`${String(month).padStart(2, "0")}/${String(day).padStart(2, "0")}/2024`),
      active: maybe(random() < 0.5 ? "true" : "false"),
      name: maybe(`${word}, ${words[(id + 3) % words.length]}`),
      comment: maybe(`said "${word}" on day ${day}`),
      category: words[id % 5]!
    }
  }
}

const csvLine = (row: Row) =>
  [
    row.id,
    row.quantity,
    row.price,
    row.ratio,
    row.signupDate,
    row.lastSeen,
    row.active,
    row.name === "" ? "" : `"${row.name}"`,
    row.comment === "" ? "" : `"${row.comment.replaceAll("\"", "\"\"")}"`,
    row.category
  ].join(",")

const jsonLine = (row: Row) => {
  const value = (text: string, number = false) => text === "" ? null : number ? Number(text) : text
  return JSON.stringify({
    id: row.id,
    quantity: value(row.quantity, true),
    price: value(row.price, true),
    ratio: value(row.ratio, true),
    signup_date: value(row.signupDate),
    last_seen: value(row.lastSeen),
    active: row.active === "" ? null : row.active === "true",
    name: value(row.name),
    comment: value(row.comment),
    category: row.category
  })
}

type Shape = "csv" | "json" | "ndjson"

/** Writes at least `megabytes` MB of the generated table in `shape`; the file's size. */
const generate = async (path: string, megabytes: number, shape: Shape): Promise<number> => {
  const out = createWriteStream(path)
  const [start, separator, end] = shape === "csv"
    ? [columns.join(",") + "\n", "\n", "\n"]
    : shape === "json"
    ? ["[\n", ",\n", "\n]\n"]
    : ["", "\n", "\n"]
  let written = 0
  let pending = start
  const rows = generateRows()
  for (let first = true; written + pending.length < megabytes * 1e6; first = false) {
    const row = rows.next().value as Row
    pending += (first ? "" : separator) + (shape === "csv" ? csvLine(row) : jsonLine(row))
    if (pending.length > 1 << 20) {
      written += pending.length
      if (!out.write(pending)) await once(out, "drain")
      pending = ""
    }
  }
  out.end(pending + end)
  await once(out, "finish")
  return (await stat(path)).size
}

const readFile = (path: string) => () => createReadStream(path, { highWaterMark: CHUNK_BYTES })

const passOne = async (path: string) => inferTable(await openRecords(readFile(path)))

const passTwo = async (path: string, inferred: Awaited<ReturnType<typeof passOne>>) => {
  let bytes = 0
  for await (const piece of encodeTable(await openRecords(readFile(path)), inferred)) bytes += piece.length
  return bytes
}

/** Both passes as the upload handler runs them: the Effect API over a Stream of the file's chunks. */
const bothPasses = (path: string) =>
  Effect.runPromise(
    Effect.flatMap(
      ingestTable(() => Stream.fromAsyncIterable(readFile(path)(), (error) => error)),
      ({ table }) => Stream.runFold(table, () => 0, (bytes, piece) => bytes + piece.length)
    )
  )

interface Seconds {
  readonly wall: number
  /** User + system CPU of the whole process (GC threads included): less swayed than wall time by other processes. */
  readonly cpu: number
}

const timed = async (run: () => Promise<unknown>): Promise<Seconds> => {
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  await run()
  const cpu = process.cpuUsage(cpuBefore)
  return { wall: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6 }
}

const measureFile = async (label: string, path: string) => {
  const size = (await stat(path)).size
  const mb = size / 1e6
  global.gc?.()
  const baselineMiB = statusMiB("VmRSS")
  const peakReset = resetPeak()
  const inferred = await passOne(path)
  const seconds = { pass1: [] as Array<Seconds>, pass2: [] as Array<Seconds>, total: [] as Array<Seconds> }
  let ipcBytes = 0
  for (let round = 0; round < rounds; round++) {
    seconds.pass1.push(await timed(() => passOne(path)))
    seconds.pass2.push(await timed(async () => {
      ipcBytes = await passTwo(path, inferred)
    }))
    seconds.total.push(await timed(() => bothPasses(path)))
  }
  const rate = (values: ReadonlyArray<Seconds>, clock: keyof Seconds = "wall") =>
    +(mb / median(values.map((value) => value[clock]))).toFixed(1)
  const spread = (values: ReadonlyArray<Seconds>) => {
    const walls = values.map((value) => value.wall)
    return `${(mb / Math.max(...walls)).toFixed(0)}–${(mb / Math.min(...walls)).toFixed(0)}`
  }
  console.log(JSON.stringify({
    bench: `ingest ${label}`,
    megabytes: +mb.toFixed(1),
    rows: inferred.summary.rowCount,
    types: inferred.summary.columns.map((column) => column.type).join(","),
    ipcMegabytes: +(ipcBytes / 1e6).toFixed(1),
    pass1MBps: rate(seconds.pass1),
    pass2MBps: rate(seconds.pass2),
    totalMBps: rate(seconds.total),
    pass1CpuMBps: rate(seconds.pass1, "cpu"),
    pass2CpuMBps: rate(seconds.pass2, "cpu"),
    totalCpuMBps: rate(seconds.total, "cpu"),
    peakRssMiB: +statusMiB("VmHWM").toFixed(0),
    baselineMiB: +baselineMiB.toFixed(0),
    peakIsPerFile: peakReset
  }))
  console.error(`  ${label}: MB/s pass 1 ${spread(seconds.pass1)}, pass 2 ${spread(seconds.pass2)}, ` +
    `both ${spread(seconds.total)} (slowest–fastest of ${rounds})`)
}

const dir = await mkdtemp(join(tmpdir(), "ingest-bench-"))
try {
  const files: Array<readonly [string, () => Promise<string>]> = [
    ["diamonds.csv", async () => diamonds],
    ...([["csv", smallMb], ["csv", largeMb], ["json", smallMb], ["ndjson", smallMb]] as const).map(([shape, megabytes]) =>
      [`mixed ${megabytes} MB ${shape}`, async () => {
        const path = join(dir, `mixed-${megabytes}.${shape}`)
        await generate(path, megabytes, shape)
        return path
      }] as const
    )
  ]
  for (const [label, make] of files) {
    if (only !== undefined && !label.includes(only)) continue
    const path = await make()
    await measureFile(label, path)
    if (path.startsWith(dir)) await rm(path)
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
