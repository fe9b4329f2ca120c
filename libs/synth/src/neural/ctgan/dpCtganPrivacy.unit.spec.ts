import { Effect, Schema } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { dpTrainingPlan, Release } from "../../privacy/index.ts"
import type { CategoricalColumn, ContinuousColumn, SynthTable } from "../../table.ts"
import { DEFAULT_MAX_CATEGORIES } from "../../transform/index.ts"
import { privateSpecsOf, publicSchemaOf } from "../../transform/privateSpecs.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { type CtganArtifact, type CtganModel, fitCtgan } from "./index.ts"
import { COMMON_CITIES, customersTable, ONE_ROW_CITY, OUTLIER_INCOME } from "./testing/customersTable.ts"

const small = { embeddingDim: 16, generatorDims: [32, 32], discriminatorDims: [32, 32] } as const
const table = customersTable(600, 21)
const training = { seed: 9, epochs: 2, batchSize: 100 } as const
const targetEpsilon = 5

let model: CtganModel
let artifact: CtganArtifact
let sample: SynthTable

beforeAll(async () => {
  await startWasmBackend()
  model = await fitCtgan(table, { ...small, ...training, dp: { targetEpsilon } })
  artifact = JSON.parse(JSON.stringify(model.toJSON())) as CtganArtifact
  sample = model.sample(5000, 3)
}, 60_000)

const named = <T>(synth: SynthTable, name: string) => synth.columns.find((column) => column.name === name) as T

/** Every number and string anywhere in a JSON value. */
const leaves = (value: unknown, numbers: Array<number>, strings: Array<string>): void => {
  if (typeof value === "number") numbers.push(value)
  else if (typeof value === "string") strings.push(value)
  else if (Array.isArray(value)) value.forEach((item) => leaves(item, numbers, strings))
  else if (typeof value === "object" && value !== null) Object.values(value).forEach((item) => leaves(item, numbers, strings))
}

describe("DP-CTGAN's artifact", () => {
  it("holds no statistic of the data but the ledger's releases and the schema", () => {
    const releases = Schema.decodeUnknownSync(Schema.Array(Release))(artifact.privacy!.releases)
    // What the artifact says of each column besides its encoding: the public schema.
    const schema = publicSchemaOf(table)
    expect(artifact.transformer.columns.map((spec) =>
      spec.kind === "continuous"
        ? { kind: spec.kind, name: spec.name, type: spec.type, sourceFormat: spec.sourceFormat, rounding: spec.rounding }
        : { kind: spec.kind, name: spec.name, type: spec.type }
    )).toEqual(schema)
    // Every other number and label of the transformer, and the conditional sampler's counts, are functions of the
    // releases and the schema alone: rebuilt from them, they are the same to the last bit.
    const rebuilt = privateSpecsOf(schema, releases, DEFAULT_MAX_CATEGORIES)
    expect(artifact.transformer.columns).toEqual(JSON.parse(JSON.stringify(rebuilt.specs)))
    expect(artifact.conditionCounts).toEqual(rebuilt.slotWeights.map((weights) => Array.from(weights)))
    // One release per statistic: the row count; per number column a histogram and two quantiles; per categorical
    // column its labels.
    expect(releases.map((release) => `${release._tag}:${"column" in release ? release.column : release.statistic}`)).toEqual([
      "count:rows",
      "histogram:income", "quantile:income", "quantile:income",
      "histogram:age", "quantile:age", "quantile:age",
      "histogram:signup", "quantile:signup", "quantile:signup",
      "categories:city",
      "categories:subscribed"
    ])
  })

  it("was trained with the plan of its released row count, and spends no more than the target", async () => {
    const privacy = artifact.privacy!
    const released = privacy.releases!.find((release) => release._tag === "count")!
    const rows = Math.max(1, released._tag === "count" ? released.count : NaN)
    const plan = await Effect.runPromise(dpTrainingPlan({ rows, epochs: training.epochs, batchSize: training.batchSize, targetEpsilon }))
    expect(privacy.noiseMultiplier).toBe(plan.noiseMultiplier)
    expect(privacy.steps).toBe(plan.steps)
    const spentByReleases = privacy.releases!.reduce((sum, release) => sum + release.epsilon, 0)
    expect(spentByReleases).toBeLessThanOrEqual(privacy.budget!.preprocessing)
    expect(privacy.budget!.preprocessing).toBe(plan.budget.preprocessing)
    expect(privacy.budget!.training).toBeLessThanOrEqual(plan.budget.training)
    expect(privacy.epsilonSpent).toBe(privacy.budget!.preprocessing + privacy.budget!.training)
    expect(privacy.epsilonSpent).toBeLessThanOrEqual(targetEpsilon)
    expect(privacy.delta).toBe(privacy.releases!.reduce((sum, release) => sum + release.delta, 0) + plan.delta.training)
    expect(privacy.delta).toBeLessThanOrEqual(plan.delta.total)
  })

  it("never holds the outlier, a real extreme or the one-row label, anywhere", () => {
    const numbers: Array<number> = []
    const strings: Array<string> = []
    leaves(artifact, numbers, strings)
    const income = table.columns[0] as ContinuousColumn
    const extremes = [Math.min(...income.values), Math.max(...income.values)]
    expect(extremes[1]).toBe(OUTLIER_INCOME)
    expect(numbers.filter((number) => extremes.includes(number))).toEqual([])
    expect(strings.filter((text) => text.includes(ONE_ROW_CITY))).toEqual([])
    expect(JSON.stringify(artifact)).not.toContain("9876543")
  })
})

describe("DP-CTGAN's output", () => {
  it("never publishes the outlier or the one-row label, and stays within the released bounds", () => {
    const income = named<ContinuousColumn>(sample, "income")
    const spec = artifact.transformer.columns[0]!
    if (spec.kind !== "continuous") throw new Error("income is numeric")
    expect(spec.max).toBeLessThan(OUTLIER_INCOME)
    expect(income.values.includes(OUTLIER_INCOME)).toBe(false)
    expect(Math.max(...income.values)).toBeLessThanOrEqual(spec.max + 0.005)
    expect(Math.max(...income.values)).toBeLessThan(600_000)
    const city = named<CategoricalColumn>(sample, "city")
    expect(city.categories.includes(ONE_ROW_CITY)).toBe(false)
    expect(new Set(Array.from(city.codes, (code) => city.categories[code]))).not.toContain(ONE_ROW_CITY)
    // The common cities (150 rows each) clear the selection threshold (about 40 here): only the rare one is lost.
    expect(city.categories).toEqual([...COMMON_CITIES].sort())
    expect(sample.rowCount).toBe(5000)
  })
})
