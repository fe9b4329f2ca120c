// Black-box end-to-end tests of constraints and conditional sampling (issue 26) against the standalone runtime started
// with Node, on penguins (profiled first, so the gateway knows its ranges and labels): a Gaussian copula and a CTGAN
// of few epochs trained with every constraint type that the data holds and two conditions, each downloaded row
// checked against every rule with the exact row count; a later sample with conditions; the gateway's 422s by field;
// a condition too rare to meet, which fails the sample with reason conditions_unmet.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { download, expectProblem, parseCsv, upload, uploaded } from "../support/datasets.ts"
import { generateAndWait, getGenerator, pollGenerator, requestGeneration } from "../support/generators.ts"
import { bearer, http } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, realDataset } from "../support/upload.ts"

let server: RunningServer
let baseUrl: string
let owner: string
let penguins: string

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: { AUTH_RATE_LIMIT_PER_MINUTE: "10000", RATE_LIMIT_PER_MINUTE: "100000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
    readyTimeoutMs: 150_000
  })
  baseUrl = server.baseUrl
  owner = await createAccount(baseUrl, "constraints-owner")
  penguins = uploaded(await upload(baseUrl, owner, "penguins.csv", realDataset("penguins"))).id
  const profiled = await http(`${baseUrl}/datasets/${penguins}/profile`, { method: "POST", headers: bearer(owner), timeoutMs: 120_000 })
  expect(profiled.status, profiled.text.slice(0, 300)).toBe(200)
}, 300_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
}, 90_000)

/** Rules penguins' real rows all obey. */
const constraints = [
  { type: "inequality", low: "bill_depth_mm", high: "bill_length_mm", strict: false },
  { type: "fixed_combinations", columns: ["species", "island"] },
  { type: "range", column: "flipper_length_mm", min: 170, max: 235 },
  { type: "positive", column: "body_mass_g", strict: true }
]
const conditions = { sex: "female", body_mass_g: { min: 3500, max: 5000 } }

/** The species and island pairs of the real data. */
const realPairs = new Set(["Adelie|Torgersen", "Adelie|Biscoe", "Adelie|Dream", "Gentoo|Biscoe", "Chinstrap|Dream"])

type Row = Record<string, string>

const rowsOf = async (datasetId: string): Promise<Array<Row>> => {
  const response = await download(baseUrl, owner, datasetId)
  expect(response.status, response.text.slice(0, 300)).toBe(200)
  const [header, ...cells] = parseCsv(response.text)
  return cells.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index] ?? ""])))
}

const present = (value: string | undefined): value is string => value !== undefined && value !== ""

/** Every row obeys every constraint (where its columns are present, as the rules say). */
const expectConstraintsHold = (rows: ReadonlyArray<Row>) => {
  const broken = rows.filter((row) =>
    (present(row.bill_depth_mm) && present(row.bill_length_mm) && Number(row.bill_depth_mm) > Number(row.bill_length_mm)) ||
    !realPairs.has(`${row.species}|${row.island}`) ||
    (present(row.flipper_length_mm) && (Number(row.flipper_length_mm) < 170 || Number(row.flipper_length_mm) > 235)) ||
    (present(row.body_mass_g) && Number(row.body_mass_g) <= 0)
  )
  expect(broken, JSON.stringify(broken.slice(0, 3))).toEqual([])
}

const expectConditionsMet = (rows: ReadonlyArray<Row>) => {
  const unmet = rows.filter((row) =>
    row.sex !== "female" || !present(row.body_mass_g) || Number(row.body_mass_g) < 3500 || Number(row.body_mass_g) > 5000
  )
  expect(unmet, JSON.stringify(unmet.slice(0, 3))).toEqual([])
}

const sample = async (generatorId: string, body: unknown) => {
  const response = await http(`${baseUrl}/generators/${generatorId}/sample`, { method: "POST", headers: bearer(owner), body })
  expect(response.status, response.text).toBe(202)
  const outputId = (response.json as { output_dataset_id: string }).output_dataset_id
  const records = await pollGenerator(baseUrl, owner, generatorId, (record) =>
    record.samples.some((entry) => entry.output_dataset_id === outputId && entry.status !== "running"))
  return { outputId, entry: records.at(-1)!.samples.find((entry) => entry.output_dataset_id === outputId)! }
}

const fieldsOf = (body: unknown) => ((body as { errors?: Array<{ field: string }> }).errors ?? []).map((error) => error.field)

describe.each([
  { generator_type: "gaussian_copula" },
  { generator_type: "ctgan", epochs: 3, batch_size: 100 }
])("$generator_type with constraints and conditions", (model) => {
  let generatorId: string

  it("produces exactly num_rows rows, every one obeying each constraint and meeting each condition", async () => {
    const { final } = await generateAndWait(baseUrl, owner, penguins, { ...model, num_rows: 300, seed: 4, constraints, conditions })
    expect(final.status, JSON.stringify(final.error)).toBe("completed")
    generatorId = final.id
    expect(final.constraints).toEqual(constraints)
    expect(final.conditions).toEqual(conditions)
    const rows = await rowsOf(final.output_dataset_id!)
    expect(rows).toHaveLength(300)
    expectConstraintsHold(rows)
    expectConditionsMet(rows)
  }, 240_000)

  it("samples again with other conditions, still under the trained constraints", async () => {
    const { entry, outputId } = await sample(generatorId, { num_rows: 200, seed: 5, conditions: { species: "Gentoo" } })
    expect(entry).toMatchObject({ status: "completed", conditions: { species: "Gentoo" }, error: null, reason: null })
    const rows = await rowsOf(outputId)
    expect(rows).toHaveLength(200)
    expectConstraintsHold(rows)
    expect(rows.filter((row) => row.species !== "Gentoo")).toEqual([])
  }, 120_000)

  it("refuses a sample's unknown condition value at once, and fails a sample whose conditions cannot be met", async () => {
    const refused = expectProblem(
      await http(`${baseUrl}/generators/${generatorId}/sample`, { method: "POST", headers: bearer(owner), body: { num_rows: 5, conditions: { island: "Atlantis", age: 3 } } }),
      422,
      "validation_failed"
    )
    expect(fieldsOf(refused)).toEqual(["conditions.island", "conditions.age"])
    const { entry } = await sample(generatorId, { num_rows: 50, seed: 6, conditions: { species: "Gentoo", island: "Dream" } })
    expect(entry.status).toBe("failed")
    expect(entry.error).toMatch(/met the conditions/)
    expect(entry.reason).toBe("conditions_unmet")
  }, 120_000)
})

describe("refusals", () => {
  it("answers 422 naming each field of a malformed rule", async () => {
    const response = await requestGeneration(baseUrl, owner, penguins, {
      generator_type: "gaussian_copula",
      num_rows: 10,
      constraints: [{ type: "inequality", low: "nope", high: "bill_length_mm" }, { type: "sideways" }, { type: "range", column: "species", min: 0 }],
      conditions: { body_mass_g: { min: 5000, max: 3000 }, sex: 1, wings: 2 }
    })
    const problem = expectProblem(response, 422, "validation_failed")
    expect(fieldsOf(problem)).toEqual(expect.arrayContaining([
      "constraints[0].low",
      "constraints[1].type",
      "constraints[2].column",
      "conditions.sex",
      "conditions.wings"
    ]))
    expect(fieldsOf(problem).some((field) => field.startsWith("conditions.body_mass_g"))).toBe(true)
  })

  it("answers 422 at once for a constraint the real data breaks and a condition value it never holds", async () => {
    const broken = expectProblem(await requestGeneration(baseUrl, owner, penguins, {
      generator_type: "gaussian_copula",
      num_rows: 10,
      constraints: [{ type: "range", column: "body_mass_g", min: 3000, max: 5000 }, { type: "unique", columns: ["species"] }]
    }), 422, "validation_failed")
    expect(fieldsOf(broken)).toEqual(["constraints[0]", "constraints[1]"])
    expect(JSON.stringify(broken)).toContain("range body_mass_g in [3000, 5000]")
    const never = expectProblem(await requestGeneration(baseUrl, owner, penguins, {
      generator_type: "gaussian_copula",
      num_rows: 10,
      conditions: { island: "Antarctica" }
    }), 422, "validation_failed")
    expect(fieldsOf(never)).toEqual(["conditions.island"])
  })

  it("fails the job with conditions_unmet when no drawn row can meet the conditions", async () => {
    const { final } = await generateAndWait(baseUrl, owner, penguins, {
      generator_type: "gaussian_copula",
      num_rows: 100,
      seed: 2,
      constraints: [{ type: "fixed_combinations", columns: ["species", "island"] }],
      conditions: { species: "Chinstrap", island: "Biscoe" }
    })
    expect(final.status).toBe("failed")
    expect(final.error).toMatchObject({ code: "training_failed", reason: "conditions_unmet" })
    expect(final.error!.message).toMatch(/Only 0 of the 100 rows asked for met the conditions/)
    expect(final.error!.message).toContain('species = "Chinstrap"')
    const record = await getGenerator(baseUrl, owner, final.id)
    expect(record.output_dataset_id).toBeNull()
  }, 240_000)
})
