// A large table through every stage of the embedded server, and the server's resident memory in each: a generated
// ~100 MB CSV (diamonds rows resampled and perturbed, plus a sale date and a free-text note: 12 columns) is uploaded, profiled,
// scanned for personal data, fitted by the Gaussian copula, trained by CTGAN for a few epochs, evaluated quickly and
// in full against the CTGAN output, and downloaded (the original and the output). Then a 10,000 × 23 table (telco
// churn rows resampled, three columns added) is trained by CTGAN for 50 epochs: the peak of goal 1 of issue 27.
//
// Memory is the resident set of the server's process tree (VmRSS summed over the process and its descendants,
// /proc, Linux only), sampled every 100 ms; a stage's peak is the highest reading from its request to its end. Each
// stage's time is the client's, from its request to its end (polling every 100-200 ms for the asynchronous ones).
//
// Knobs: BENCH_LARGE_MB (100), BENCH_LARGE_CTGAN_EPOCHS (1), BENCH_LARGE_ROWS_OUT (100000: rows each generator
// draws), BENCH_LARGE_EVAL_SAMPLE (20000), BENCH_SMALL_EPOCHS (50), BENCH_LARGE_PARTS ("large,small"),
// BENCH_SERVER_TREE (a checkout whose server to run, e.g. an untouched tree for a before/after; default this one).
import { once } from "node:events"
import { createWriteStream, readFileSync } from "node:fs"
import { mkdtemp, rm, stat } from "node:fs/promises"
import { request as httpRequest } from "node:http"
import { loadavg, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { bearer, goodPassword, http, type RawResponse, uniqueEmail } from "../support/http.ts"
import { type RunningServer, repoRoot, startServer } from "../support/server.ts"
import { fixturesDir, streamUpload } from "../support/upload.ts"
import { sampleTree, type TreeSampler } from "./support/treeMemory.ts"

const largeMb = Number(process.env.BENCH_LARGE_MB ?? 100)
const ctganEpochs = Number(process.env.BENCH_LARGE_CTGAN_EPOCHS ?? 1)
const rowsOut = Number(process.env.BENCH_LARGE_ROWS_OUT ?? 100_000)
const evaluationSample = Number(process.env.BENCH_LARGE_EVAL_SAMPLE ?? 20_000)
const smallEpochs = Number(process.env.BENCH_SMALL_EPOCHS ?? 50)
const parts = (process.env.BENCH_LARGE_PARTS ?? "large,small").split(",").map((part) => part.trim())
const serverTree = resolve(process.env.BENCH_SERVER_TREE ?? repoRoot)

const minutes = (count: number) => count * 60_000

/** xorshift32: the same files on every run, without a dependency. */
const seeded = (seed: number) => () => {
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 2 ** 32
}

/** The rows of a fixture CSV as raw field strings (its header first); the fixtures quote no commas. */
const fixtureRows = (name: string): Array<Array<string>> =>
  readFileSync(join(fixturesDir, "datasets", `${name}.csv`), "utf8").trim().split("\n").map((line) => line.split(","))

const writeLines = async (path: string, header: string, targetBytes: number, line: () => string, maxRows = Infinity) => {
  const out = createWriteStream(path)
  out.write(`${header}\n`)
  let written = header.length + 1
  let rows = 0
  while (written < targetBytes && rows < maxRows) {
    const batch: Array<string> = []
    for (let index = 0; index < 1000 && rows < maxRows; index++, rows++) batch.push(line())
    const chunk = `${batch.join("\n")}\n`
    written += chunk.length
    if (!out.write(chunk)) await once(out, "drain")
  }
  out.end()
  await once(out, "finish")
  return rows
}

const isoDay = (day: number) => new Date(Date.UTC(2020, 0, 1) + day * 86_400_000).toISOString().slice(0, 10)

/**
 * Diamonds rows drawn at random, numbers perturbed by up to ±2 % (kept to the fixture's decimals), a sale date over
 * four years and a note of a few words with a lot number (high cardinality): 12 columns, ~80 bytes a row.
 */
const writeLargeCsv = async (path: string, megabytes: number) => {
  const [header, ...rows] = fixtureRows("diamonds")
  const random = seeded(27)
  const words = ["clean", "bright", "cloudy", "chipped", "certified", "vintage", "recut", "graded", "estate", "loose"]
  const perturb = (field: string) => {
    const value = Number(field)
    if (field.startsWith('"') || !Number.isFinite(value)) return field
    const decimals = field.includes(".") ? field.split(".")[1]!.length : 0
    return (value * (0.98 + 0.04 * random())).toFixed(decimals)
  }
  const line = () => {
    const row = rows[Math.floor(random() * rows.length)]!.map(perturb)
    const note = `"${words[Math.floor(random() * words.length)]} ${words[Math.floor(random() * words.length)]}, lot ${Math.floor(random() * 100_000)}"`
    return `${row.join(",")},${isoDay(Math.floor(random() * 1461))},${note}`
  }
  return writeLines(path, `${header!.join(",")},"sold_on","note"`, megabytes * 1e6, line)
}

/** 10,000 telco churn rows drawn at random with three columns added (a count, a date, a region): 23 columns. */
const writeTelcoCsv = async (path: string) => {
  const [header, ...rows] = fixtureRows("telco_churn")
  const random = seeded(23)
  const regions = ['"north"', '"south"', '"east"', '"west"', '"central"']
  const line = () =>
    [
      ...rows[Math.floor(random() * rows.length)]!,
      Math.floor(random() * 12),
      isoDay(Math.floor(random() * 730)),
      regions[Math.floor(random() * regions.length)]
    ].join(",")
  return writeLines(path, `${header!.join(",")},"support_calls","last_contact","region"`, Infinity, line, 10_000)
}

const serverEnv = {
  AUTH_RATE_LIMIT_PER_MINUTE: "100000",
  RATE_LIMIT_PER_MINUTE: "100000",
  READ_YOUR_WRITES_TIMEOUT: "600 seconds",
  UPLOAD_INGEST_TIMEOUT: "600 seconds",
  PROFILE_TIMEOUT: "600 seconds",
  PII_SCAN_TIMEOUT: "600 seconds",
  EVALUATION_TIMEOUT: "3600 seconds",
  GENERATION_STALL_TIMEOUT: "3600 seconds",
  MAX_FILE_SIZE: String(4 * largeMb * 1e6)
}

const expectStatus = (what: string, response: { readonly status: number; readonly text: string }, ...statuses: Array<number>) => {
  if (!statuses.includes(response.status)) throw new Error(`${what} answered ${response.status}: ${response.text.slice(0, 500)}`)
}

/** An account's access token, renewed by logging in again (a stage can outlast the token). */
interface Auth {
  token: string
  readonly renew: () => Promise<void>
}

const account = async (baseUrl: string, label: string): Promise<Auth> => {
  const email = uniqueEmail(label)
  expectStatus("registration", await http(`${baseUrl}/auth/register`, { body: { email, password: goodPassword } }), 201)
  const auth: Auth = {
    token: "",
    renew: async () => {
      const login = await http(`${baseUrl}/auth/login`, { body: { email, password: goodPassword } })
      expectStatus("login", login, 200)
      auth.token = (login.json as { readonly access_token: string }).access_token
    }
  }
  await auth.renew()
  return auth
}

const poll = async (
  what: string,
  auth: Auth,
  read: () => Promise<RawResponse>,
  done: (body: Record<string, unknown>) => boolean,
  timeoutMs: number
) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await read()
    if (response.status === 401) {
      await auth.renew()
      continue
    }
    expectStatus(what, response, 200)
    const body = response.json as Record<string, unknown>
    if (done(body)) return body
    if (Date.now() > deadline) throw new Error(`${what} did not end in ${timeoutMs} ms: ${response.text.slice(0, 500)}`)
    await new Promise((wake) => setTimeout(wake, 150))
  }
}

/** Streams a GET's body through, counting its bytes (a download never held whole by the client). */
const downloadBytes = (url: string, auth: Auth): Promise<number> =>
  new Promise((resolveBytes, reject) => {
    const request = httpRequest(url, { headers: bearer(auth.token), agent: false, timeout: minutes(10) })
    request.once("error", reject)
    request.once("response", (response) => {
      if (response.statusCode !== 200) return reject(new Error(`GET ${url} answered ${response.statusCode}`))
      let bytes = 0
      response.on("data", (chunk: Buffer) => (bytes += chunk.length))
      response.once("end", () => resolveBytes(bytes))
      response.once("error", reject)
    })
    request.end()
  })

interface StageResult {
  readonly stage: string
  readonly seconds: number
  readonly peakMiB: number
  readonly beforeMiB: number
  readonly note?: string
}

/** Runs one stage with a fresh token (outside its time), recording its time and peak. */
const stageRunner = (part: string, auth: Auth, sampler: TreeSampler, results: Array<StageResult>) =>
  async <A>(stage: string, run: () => Promise<A>, note?: (value: A) => string): Promise<A> => {
    await auth.renew()
    sampler.restart()
    const beforeMiB = sampler.now()
    const started = performance.now()
    const value = await run()
    const result = {
      stage,
      seconds: +((performance.now() - started) / 1000).toFixed(2),
      peakMiB: Math.round(sampler.peak()),
      beforeMiB: Math.round(beforeMiB),
      ...(note === undefined ? {} : { note: note(value) })
    }
    results.push(result)
    console.log(JSON.stringify({ bench: "large-table", part, ...result }))
    console.error(`${part} ${stage}: ${result.seconds} s, ${result.beforeMiB} → peak ${result.peakMiB} MiB${result.note ? ` (${result.note})` : ""}`)
    return value
  }

const upload = async (server: RunningServer, auth: Auth, path: string, name: string) => {
  const answer = await streamUpload(server.baseUrl, auth.token, path, name)
  expectStatus(`upload of ${name}`, answer, 201, 202)
  const body = JSON.parse(answer.text) as { readonly id: string }
  if (answer.status === 202) {
    await poll("upload", auth, () => http(`${server.baseUrl}/datasets/${body.id}`, { headers: bearer(auth.token) }), (dataset) => dataset.status !== "processing", minutes(20))
  }
  return body.id
}

/** A request that answers 200 or, when the work outlasts the server's wait, 202 with a Location to poll. */
const waitedPost = async (server: RunningServer, auth: Auth, path: string, what: string) => {
  const answer = await http(`${server.baseUrl}${path}`, { method: "POST", headers: bearer(auth.token), timeoutMs: minutes(20) })
  expectStatus(what, answer, 200, 202)
  if (answer.status === 200) return answer.json as Record<string, unknown>
  return poll(what, auth, () => http(`${server.baseUrl}${answer.header("location")}`, { headers: bearer(auth.token) }), (body) => body.status !== "running", minutes(20))
}

const generate = async (server: RunningServer, auth: Auth, datasetId: string, body: Record<string, unknown>) => {
  const answer = await http(`${server.baseUrl}/generators/dataset/${datasetId}/generate`, { method: "POST", headers: bearer(auth.token), body })
  expectStatus("generation", answer, 202)
  const id = (answer.json as { readonly generator_id: string }).generator_id
  const final = await poll("generator", auth, () => http(`${server.baseUrl}/generators/${id}`, { headers: bearer(auth.token) }), (record) => record.status !== "running", minutes(60))
  if (final.status !== "completed") throw new Error(`generator ${id} ended ${String(final.status)}: ${JSON.stringify(final).slice(0, 800)}`)
  return { id, output: final.output_dataset_id as string }
}

const largePart = async (server: RunningServer, sampler: TreeSampler, csvPath: string, csvRows: number) => {
  const results: Array<StageResult> = []
  const auth = await account(server.baseUrl, "large")
  const stage = stageRunner("large", auth, sampler, results)
  const datasetId = await stage("upload", () => upload(server, auth, csvPath, "large.csv"), () => `${csvRows} rows`)
  await stage("profile", () => waitedPost(server, auth, `/datasets/${datasetId}/profile`, "profile"))
  await stage("scan", () => waitedPost(server, auth, `/datasets/${datasetId}/pii-detection`, "scan"))
  await stage("copula", () => generate(server, auth, datasetId, { generator_type: "gaussian_copula", num_rows: rowsOut }))
  const ctgan = await stage(
    "ctgan",
    () => generate(server, auth, datasetId, { generator_type: "ctgan", num_rows: rowsOut, epochs: ctganEpochs }),
    () => `${ctganEpochs} epoch(s), ${rowsOut} rows out`
  )
  await stage("quick-evaluation", async () => {
    const answer = await http(`${server.baseUrl}/evaluations/quick/${ctgan.id}`, { method: "POST", headers: bearer(auth.token), timeoutMs: minutes(20) })
    expectStatus("quick evaluation", answer, 200)
  })
  await stage("full-evaluation", async () => {
    const answer = await http(`${server.baseUrl}/evaluations/run`, {
      method: "POST",
      headers: bearer(auth.token),
      body: {
        generator_id: ctgan.id,
        dataset_id: datasetId,
        evaluation_sample_size: evaluationSample,
        ml_utility_config: { algorithms: ["random_forest"], test_size: 0.2, cross_validation_folds: 2, random_state: 1, target_column: "price" }
      }
    })
    expectStatus("evaluation run", answer, 202)
    const id = (answer.json as { readonly evaluation_id: string }).evaluation_id
    const final = await poll("evaluation", auth, () => http(`${server.baseUrl}/evaluations/${id}`, { headers: bearer(auth.token) }), (record) => record.status !== "running", minutes(60))
    if (final.status !== "completed") throw new Error(`evaluation ${id} ended ${String(final.status)}: ${JSON.stringify(final).slice(0, 800)}`)
  }, () => `${evaluationSample}-row samples`)
  await stage("download-original", () => downloadBytes(`${server.baseUrl}/datasets/${datasetId}/download`, auth), (bytes) => `${(bytes / 1e6).toFixed(1)} MB`)
  await stage("download-output", () => downloadBytes(`${server.baseUrl}/datasets/${ctgan.output}/download`, auth), (bytes) => `${(bytes / 1e6).toFixed(1)} MB`)
  return results
}

const smallPart = async (server: RunningServer, sampler: TreeSampler, csvPath: string) => {
  const results: Array<StageResult> = []
  const auth = await account(server.baseUrl, "small")
  const stage = stageRunner("small", auth, sampler, results)
  const datasetId = await stage("upload", () => upload(server, auth, csvPath, "telco23.csv"), () => "10000 × 23")
  await stage(
    "ctgan",
    () => generate(server, auth, datasetId, { generator_type: "ctgan", num_rows: 10_000, epochs: smallEpochs }),
    () => `${smallEpochs} epochs`
  )
  return results
}

const withServer = async <A>(run: (server: RunningServer, sampler: TreeSampler) => Promise<A>) => {
  const server = await startServer({
    runtime: "node",
    entry: join(serverTree, "services/standalone/src/main.ts"),
    env: serverEnv,
    readyTimeoutMs: minutes(10)
  })
  const sampler = sampleTree(server.pid)
  try {
    return await run(server, sampler)
  } finally {
    await sampler.stop()
    await server.stop("SIGTERM", 60_000)
  }
}

const workDir = await mkdtemp(join(tmpdir(), "synth-bench-large-"))
try {
  console.error(`server tree ${serverTree}; load average ${loadavg().map((load) => load.toFixed(1)).join(" ")}`)
  const printed: Array<[string, Array<StageResult>]> = []
  if (parts.includes("large")) {
    const csvPath = join(workDir, "large.csv")
    const csvRows = await writeLargeCsv(csvPath, largeMb)
    console.error(`generated ${((await stat(csvPath)).size / 1e6).toFixed(1)} MB, ${csvRows} rows × 12 columns`)
    printed.push(["large", await withServer((server, sampler) => largePart(server, sampler, csvPath, csvRows))])
  }
  if (parts.includes("small")) {
    const csvPath = join(workDir, "telco23.csv")
    await writeTelcoCsv(csvPath)
    printed.push(["small", await withServer((server, sampler) => smallPart(server, sampler, csvPath))])
  }
  console.log("")
  console.log("| part | stage | seconds | before (MiB) | peak (MiB) | note |")
  console.log("|---|---|---:|---:|---:|---|")
  for (const [part, results] of printed) {
    for (const result of results) console.log(`| ${part} | ${result.stage} | ${result.seconds} | ${result.beforeMiB} | ${result.peakMiB} | ${result.note ?? ""} |`)
  }
  console.error(`load average at the end ${loadavg().map((load) => load.toFixed(1)).join(" ")}`)
} finally {
  await rm(workDir, { recursive: true, force: true })
}
