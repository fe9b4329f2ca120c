// Upload throughput and server memory of the standalone runtime: end-to-end time of POST /datasets/upload (request
// start to the 201) for diamonds.csv and generated 10 MB and 100 MB mixed-type CSVs, the server process's peak
// resident memory during an upload, and its resident memory over repeated uploads of the same file.
//
// Each part runs on a fresh server (fresh DATA_DIR, embedded default), so a peak (VmHWM) belongs to that part alone.
// Resident memory is read from /proc/<pid>/status (Linux only): VmRSS sampled every 20 ms during an upload, VmHWM
// (the process's peak since its start) as a cross-check.
//
// Knobs: BENCH_SMALL_ROUNDS (5: diamonds and 10 MB), BENCH_LARGE_ROUNDS (3: 100 MB), BENCH_REPEATS (20: memory over
// repeated 10 MB uploads), BENCH_LARGE_MB (100), BENCH_SMALL_MB (10).
import { once } from "node:events"
import { createWriteStream } from "node:fs"
import { mkdtemp, readFile, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createAccount, fixturesDir, streamUpload, type TimedUpload } from "../support/upload.ts"
import { bearer, http } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"

const smallRounds = Number(process.env.BENCH_SMALL_ROUNDS ?? 5)
const largeRounds = Number(process.env.BENCH_LARGE_ROUNDS ?? 3)
const repeats = Number(process.env.BENCH_REPEATS ?? 20)
const largeMb = Number(process.env.BENCH_LARGE_MB ?? 100)
const smallMb = Number(process.env.BENCH_SMALL_MB ?? 10)

const MiB = 1024 * 1024
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
/** Least-squares slope of ys over 0, 1, 2, ... */
const slope = (ys: ReadonlyArray<number>) => {
  const n = ys.length
  const meanX = (n - 1) / 2
  const meanY = ys.reduce((sum, y) => sum + y, 0) / n
  let numerator = 0
  let denominator = 0
  ys.forEach((y, x) => {
    numerator += (x - meanX) * (y - meanY)
    denominator += (x - meanX) ** 2
  })
  return denominator === 0 ? 0 : numerator / denominator
}

const procStatusKiB = async (pid: number, field: "VmRSS" | "VmHWM") => {
  const status = await readFile(`/proc/${pid}/status`, "utf8")
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)
  if (match === null) throw new Error(`no ${field} in /proc/${pid}/status`)
  return Number(match[1])
}
const rssMiB = async (pid: number) => (await procStatusKiB(pid, "VmRSS")) / 1024
const hwmMiB = async (pid: number) => (await procStatusKiB(pid, "VmHWM")) / 1024

/**
 * A CSV of at least `megabytes` MB with integers, floats (some with many digits), ISO and US dates, booleans,
 * strings with quotes and commas, and about 3 % missing cells.
 */
const generateCsv = async (path: string, megabytes: number) => {
  const target = megabytes * 1e6
  const out = createWriteStream(path)
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
  let written = 0
  // xorshift32: the same file on every run, without a dependency.
  let seed = 42
  const random = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
  const maybe = (value: string) => (random() < 0.03 ? "" : value)
  const header = "id,quantity,price,ratio,signup_date,last_seen,active,name,comment,category\n"
  out.write(header)
  written += header.length
  let id = 0
  while (written < target) {
    const lines: Array<string> = []
    for (let batch = 0; batch < 1000; batch++) {
      id += 1
      const day = 1 + Math.floor(random() * 28)
      const month = 1 + Math.floor(random() * 12)
      const word = words[Math.floor(random() * words.length)]!
      lines.push(
        [
          id,
          maybe(String(Math.floor(random() * 10_000))),
          maybe((random() * 1000).toFixed(2)),
          maybe(String(random())),
          maybe(`2023-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`),
          maybe(`${String(month).padStart(2, "0")}/${String(day).padStart(2, "0")}/2024`),
          maybe(random() < 0.5 ? "true" : "false"),
          maybe(`"${word}, ${words[(id + 3) % words.length]}"`),
          maybe(`"said ""${word}"" on day ${day}"`),
          words[id % 5]
        ].join(",")
      )
    }
    const chunk = lines.join("\n") + "\n"
    written += chunk.length
    if (!out.write(chunk)) await once(out, "drain")
  }
  out.end()
  await once(out, "finish")
  return (await stat(path)).size
}

const serverEnv = {
  AUTH_RATE_LIMIT_PER_MINUTE: "100000",
  RATE_LIMIT_PER_MINUTE: "100000",
  READ_YOUR_WRITES_TIMEOUT: "300 seconds",
  UPLOAD_INGEST_TIMEOUT: "600 seconds",
  MAX_FILE_SIZE: String(4 * largeMb * 1e6)
}

const startFresh = async () => {
  const server = await startServer({ runtime: "node", env: serverEnv, readyTimeoutMs: 150_000 })
  const token = await createAccount(server.baseUrl, "bench")
  return { server, token }
}

/** One upload while sampling the server's VmRSS every 20 ms; fails unless the server answered 201. */
const sampledUpload = async (server: RunningServer, token: string, path: string, filename: string) => {
  let peak = await rssMiB(server.pid)
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssMiB(server.pid).catch(() => peak))
      await new Promise((wake) => setTimeout(wake, 20))
    }
  })()
  let result: TimedUpload
  try {
    result = await streamUpload(server.baseUrl, token, path, filename)
  } finally {
    sampling = false
    await sampler
  }
  if (result.status !== 201) throw new Error(`upload of ${filename} answered ${result.status}: ${result.text.slice(0, 500)}`)
  const id = (JSON.parse(result.text) as { readonly id: string }).id
  return { milliseconds: result.milliseconds, peakRssMiB: peak, id }
}

/** Best effort: keeps the data dir small between rounds; the numbers do not depend on it. */
const deleteDataset = (server: RunningServer, token: string, id: string) =>
  http(`${server.baseUrl}/datasets/${id}`, { method: "DELETE", headers: bearer(token) }).catch(() => undefined)

interface Row {
  readonly file: string
  readonly megabytes: number
  readonly rounds: number
  readonly mbPerSecond: number
  readonly secondsMedian: number
  /** VmRSS sampled every 20 ms during the uploads: the highest reading. */
  readonly peakRssMiB: number
  /** VmRSS before the first upload. */
  readonly baselineRssMiB: number
  /** VmHWM at the end (the process's peak since its start, start-up included); only for a fresh process. */
  readonly hwmMiB: number | null
}

const throughput = async (label: string, path: string, rounds: number, fresh: boolean): Promise<Row> => {
  const { server, token } = await startFresh()
  try {
    const bytes = (await stat(path)).size
    const baseline = await rssMiB(server.pid)
    const seconds: Array<number> = []
    let peak = 0
    for (let round = 0; round < rounds; round++) {
      const upload = await sampledUpload(server, token, path, `${label}.csv`)
      seconds.push(upload.milliseconds / 1000)
      peak = Math.max(peak, upload.peakRssMiB)
      console.error(`${label}: round ${round + 1}/${rounds} ${(upload.milliseconds / 1000).toFixed(2)} s, peak RSS ${peak.toFixed(0)} MiB`)
      await deleteDataset(server, token, upload.id)
    }
    const row = {
      file: label,
      megabytes: bytes / 1e6,
      rounds,
      secondsMedian: median(seconds),
      mbPerSecond: bytes / 1e6 / median(seconds),
      peakRssMiB: peak,
      baselineRssMiB: baseline,
      hwmMiB: fresh ? await hwmMiB(server.pid) : null
    }
    console.log(JSON.stringify({ bench: "upload", ...row, seconds }))
    return row
  } finally {
    await server.stop("SIGTERM", 60_000)
  }
}

const memoryOverRepeats = async (path: string) => {
  const { server, token } = await startFresh()
  try {
    const rss: Array<number> = []
    for (let round = 0; round < repeats; round++) {
      const upload = await sampledUpload(server, token, path, "repeat.csv")
      await deleteDataset(server, token, upload.id)
      rss.push(await rssMiB(server.pid))
    }
    const firstFive = median(rss.slice(0, 5))
    const lastFive = median(rss.slice(-5))
    const result = {
      uploads: repeats,
      firstRssMiB: rss[0]!,
      lastRssMiB: rss.at(-1)!,
      firstFiveMedianMiB: firstFive,
      lastFiveMedianMiB: lastFive,
      slopeMiBPerUpload: slope(rss)
    }
    console.log(JSON.stringify({ bench: "upload-repeated", ...result, rss: rss.map((value) => Math.round(value)) }))
    return result
  } finally {
    await server.stop("SIGTERM", 60_000)
  }
}

const workDir = await mkdtemp(join(tmpdir(), "synth-bench-upload-"))
try {
  const small = join(workDir, `mixed-${smallMb}mb.csv`)
  const large = join(workDir, `mixed-${largeMb}mb.csv`)
  console.error(`generating ${smallMb} MB and ${largeMb} MB CSVs in ${workDir}`)
  await generateCsv(small, smallMb)
  await generateCsv(large, largeMb)

  const rows: Array<Row> = []
  rows.push(await throughput("diamonds", join(fixturesDir, "datasets", "diamonds.csv"), smallRounds, false))
  rows.push(await throughput(`mixed-${smallMb}mb`, small, smallRounds, false))
  // A fresh process for the large file: its VmHWM is then this file's peak and nothing earlier's.
  rows.push(await throughput(`mixed-${largeMb}mb`, large, largeRounds, true))
  const repeated = await memoryOverRepeats(small)

  const fixed = (value: number, digits = 1) => value.toFixed(digits)
  console.log("")
  console.log(
    "| file | size MB | rounds | median s | MB/s (median) | server RSS before | peak RSS during uploads | growth | growth ÷ file size | VmHWM |"
  )
  console.log("|---|---|---|---|---|---|---|---|---|---|")
  for (const row of rows) {
    const growth = row.peakRssMiB - row.baselineRssMiB
    console.log(
      `| ${row.file} | ${fixed(row.megabytes)} | ${row.rounds} | ${fixed(row.secondsMedian, 2)} | ${fixed(row.mbPerSecond)} | ` +
        `${fixed(row.baselineRssMiB, 0)} MiB | ${fixed(row.peakRssMiB, 0)} MiB | ${fixed(growth, 0)} MiB | ` +
        `${fixed((growth * MiB) / (row.megabytes * 1e6), 2)} | ${row.hwmMiB === null ? "" : `${fixed(row.hwmMiB, 0)} MiB`} |`
    )
  }
  console.log("")
  console.log(`| ${repeated.uploads} uploads of ${smallMb} MB | first | last | median of first 5 | median of last 5 | slope |`)
  console.log("|---|---|---|---|---|---|")
  console.log(
    `| server RSS | ${fixed(repeated.firstRssMiB, 0)} MiB | ${fixed(repeated.lastRssMiB, 0)} MiB | ${fixed(repeated.firstFiveMedianMiB, 0)} MiB | ` +
      `${fixed(repeated.lastFiveMedianMiB, 0)} MiB | ${fixed(repeated.slopeMiBPerUpload, 2)} MiB/upload |`
  )
} finally {
  await rm(workDir, { recursive: true, force: true })
}
