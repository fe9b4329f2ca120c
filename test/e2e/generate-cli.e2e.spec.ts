// `synth generate DATASET` run as a person runs it (node bin/synth.mjs) against a standalone runtime: a dataset
// uploaded with `synth upload`, a Gaussian copula job followed to its output, the server's refusals, usage errors,
// and Ctrl-C, which stops following but not the job.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { join } from "node:path"
import { runSynth } from "../support/cli.ts"
import { download, parseCsv } from "../support/datasets.ts"
import { getGenerator, pollGenerator } from "../support/generators.ts"
import { childEnv, repoRoot, type RunningServer, startServer } from "../support/server.ts"
import { createAccount, fixturesDir } from "../support/upload.ts"

const penguins = join(fixturesDir, "datasets", "penguins.csv")
const credentialVariables = ["SYNTH_URL", "SYNTH_TOKEN", "SYNTH_EMAIL", "SYNTH_PASSWORD"]

let server: RunningServer
let token: string
let datasetId: string

const synth = (args: ReadonlyArray<string>) =>
  runSynth(args, { unsetEnv: credentialVariables, timeoutMs: 120_000 })

const synthGenerate = (args: ReadonlyArray<string>) => synth(["generate", "--url", server.baseUrl, "--token", token, ...args])

const idAfter = (label: string, text: string) => {
  const match = new RegExp(`${label} ([0-9a-f-]{36})`).exec(text)
  expect(match, text).not.toBeNull()
  return match![1]!
}

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: { AUTH_RATE_LIMIT_PER_MINUTE: "10000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
    readyTimeoutMs: 150_000
  })
  token = await createAccount(server.baseUrl, "generate-cli")
  const uploaded = await synth(["upload", "--url", server.baseUrl, "--token", token, penguins])
  expect(uploaded.code, uploaded.output).toBe(0)
  datasetId = idAfter("dataset", uploaded.stdout)
}, 200_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
}, 90_000)

describe("synth generate", () => {
  it("--follow waits for the job, prints the output dataset (200 rows to download) and exits 0", async () => {
    const result = await synthGenerate([datasetId, "--type", "gaussian_copula", "--rows", "200", "--follow", "--seed", "1"])
    expect(result.code, result.output).toBe(0)
    const generatorId = idAfter("Generator", result.stdout)
    expect(result.stdout).toMatch(/: running, estimated time about \d+ \w+\./)
    const outputId = idAfter("Generated 200 rows: dataset", result.stdout)
    expect(result.stdout).toContain(`Download it with synth download ${outputId}.`)

    // Not a terminal: no bar, one line per stage however often the job was polled.
    expect(result.stderr).not.toContain("\u001b[")
    expect(result.stderr).not.toContain("\r")
    const stageLines = result.stderr.split("\n").filter((line) => / \| \d+% \| \d+:\d\d elapsed$/.test(line))
    expect(stageLines.length).toBeLessThanOrEqual(3)
    expect(new Set(stageLines.map((line) => line.split(" | ")[0])).size).toBe(stageLines.length)

    const record = await getGenerator(server.baseUrl, token, generatorId)
    expect(record).toMatchObject({ status: "completed", seed: 1, output_dataset_id: outputId, dataset_id: datasetId })
    const csv = await download(server.baseUrl, token, outputId)
    expect(csv.status, csv.text.slice(0, 300)).toBe(200)
    const rows = parseCsv(csv.text)
    expect(rows).toHaveLength(201)
    expect(rows[0]).toHaveLength(7)

    // The command the line names gives the same rows.
    const downloaded = await synth(["download", outputId, "--url", server.baseUrl, "--token", token, "--output", "-"])
    expect(downloaded.code, downloaded.output).toBe(0)
    expect(downloaded.stdout).toBe(csv.text)
  }, 120_000)

  it("without --follow prints the generator's id, status and estimated time and exits 0 while the job runs on", async () => {
    const result = await synthGenerate([datasetId, "--type", "gaussian_copula", "--rows", "50"])
    expect(result.code, result.output).toBe(0)
    expect(result.stdout.trim().split("\n")).toHaveLength(1)
    expect(result.stdout).toMatch(/^Generator [0-9a-f-]{36}: running, estimated time about \d+ \w+\.$/m)
    const generatorId = idAfter("Generator", result.stdout)
    expect(result.stderr).toContain(`GET /generators/${generatorId}`)
    expect((await pollGenerator(server.baseUrl, token, generatorId)).at(-1)?.status).toBe("completed")
  }, 120_000)

  it("a request the server refuses: its detail and the fields' problems on one line, exit 1", async () => {
    const noRows = await synthGenerate([datasetId, "--type", "gaussian_copula", "--rows", "0", "--follow"])
    expect(noRows.code, noRows.output).toBe(1)
    expect(noRows.stdout).toBe("")
    expect(noRows.stderr).toMatch(/^synth: The generation request has invalid fields.* num_rows: must be a whole number from 1 to \d+ \(got 0\)\.$/m)

    const noEpsilon = await synthGenerate([datasetId, "--type", "dp-ctgan", "--rows", "10"])
    expect(noEpsilon.code, noEpsilon.output).toBe(1)
    expect(noEpsilon.stderr).toMatch(/^synth: .*target_epsilon is required for dp-ctgan/m)
  }, 120_000)

  it("--constraint and --condition reach the job: every downloaded row obeys them", async () => {
    const result = await synthGenerate([
      datasetId, "--type", "gaussian_copula", "--rows", "100", "--seed", "3", "--follow",
      "--constraint", "bill_depth_mm<=bill_length_mm",
      "--constraint", '{"type":"fixed_combinations","columns":["species","island"]}',
      "--constraint", "flipper_length_mm=170..235",
      "--condition", "species=Gentoo",
      "--condition", "body_mass_g=4000.."
    ])
    expect(result.code, result.output).toBe(0)
    const record = await getGenerator(server.baseUrl, token, idAfter("Generator", result.stdout))
    expect(record.constraints).toEqual([
      { type: "inequality", low: "bill_depth_mm", high: "bill_length_mm", strict: false },
      { type: "fixed_combinations", columns: ["species", "island"] },
      { type: "range", column: "flipper_length_mm", min: 170, max: 235 }
    ])
    expect(record.conditions).toEqual({ species: "Gentoo", body_mass_g: { min: 4000 } })
    const [header, ...rows] = parseCsv((await download(server.baseUrl, token, idAfter("dataset", result.stdout))).text)
    expect(rows).toHaveLength(100)
    const at = (name: string) => header!.indexOf(name)
    const broken = rows.filter((row) =>
      row[at("species")] !== "Gentoo" || row[at("island")] !== "Biscoe" ||
      (row[at("body_mass_g")] === "" || Number(row[at("body_mass_g")]) < 4000) ||
      (row[at("bill_depth_mm")] !== "" && row[at("bill_length_mm")] !== "" && Number(row[at("bill_depth_mm")]) > Number(row[at("bill_length_mm")])) ||
      (row[at("flipper_length_mm")] !== "" && (Number(row[at("flipper_length_mm")]) < 170 || Number(row[at("flipper_length_mm")]) > 235))
    )
    expect(broken).toEqual([])
  }, 120_000)

  it("rules the server refuses exit 1 naming their fields; rules the CLI cannot read exit 2", async () => {
    const refused = await synthGenerate([datasetId, "--type", "gaussian_copula", "--rows", "10", "--constraint", "nope<=bill_length_mm", "--condition", "wings=2"])
    expect(refused.code, refused.output).toBe(1)
    expect(refused.stderr).toMatch(/constraints\[0\]\.low: .*conditions\.wings: /)

    const unreadable = await synthGenerate([datasetId, "--type", "gaussian_copula", "--rows", "10", "--constraint", "price"])
    expect(unreadable.code, unreadable.output).toBe(2)
    expect(unreadable.stderr).toContain("short form")
    const noColumn = await synthGenerate([datasetId, "--type", "gaussian_copula", "--rows", "10", "--condition", "Gentoo"])
    expect(noColumn.code, noColumn.output).toBe(2)
  }, 120_000)

  it("a dataset that is not there: the 404's detail, exit 1", async () => {
    const result = await synthGenerate(["00000000-0000-7000-8000-000000000000", "--type", "gaussian_copula", "--rows", "10"])
    expect(result.code, result.output).toBe(1)
    expect(result.stderr).toMatch(/^synth: There is no dataset "00000000-0000-7000-8000-000000000000" among yours\..*$/m)
  }, 120_000)

  it("bad usage exits 2: no credentials, no --rows, an unknown --type", async () => {
    const noCredentials = await synth(["generate", "--url", server.baseUrl, datasetId, "--type", "gaussian_copula", "--rows", "10"])
    expect(noCredentials.code, noCredentials.output).toBe(2)
    expect(noCredentials.stderr).toMatch(/--token.*--email/)

    const noRows = await synthGenerate([datasetId, "--type", "gaussian_copula"])
    expect(noRows.code, noRows.output).toBe(2)

    const unknownType = await synthGenerate([datasetId, "--type", "gan", "--rows", "10"])
    expect(unknownType.code, unknownType.output).toBe(2)
  }, 120_000)

  it("Ctrl-C while following stops following only: the job runs on to completion", async () => {
    // A million rows keep the job running for seconds after its first stage is shown.
    const args = [datasetId, "--type", "gaussian_copula", "--rows", "1000000", "--follow"]
    const child = spawn(process.execPath, ["bin/synth.mjs", "generate", "--url", server.baseUrl, "--token", token, ...args], {
      cwd: repoRoot,
      env: childEnv({ NO_COLOR: "1" }, { unsetEnv: credentialVariables }),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    let interrupted = false
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
      // Once, as a person presses Ctrl-C once: a second SIGINT ends the process before it has said what it did.
      if (!interrupted && / elapsed$/m.test(stderr)) interrupted = child.kill("SIGINT")
    })
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve))
    expect(interrupted).toBe(true)
    expect(stderr, stdout).toMatch(/Stopped following\. Generator [0-9a-f-]{36} keeps running/)
    expect(stdout).not.toContain("Generated")
    expect(code).toBe(0)
    const generatorId = idAfter("Generator", stdout)
    expect((await pollGenerator(server.baseUrl, token, generatorId)).at(-1)?.status).toBe("completed")
  }, 120_000)
})
