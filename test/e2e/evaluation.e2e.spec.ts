// Black-box end-to-end tests of evaluations against the standalone runtime started with Node: a quick evaluation of a
// Gaussian copula generator trained on half of the penguins (the spec's fields, in range), 409 before completion,
// other users' 404s; evaluation runs (202, polled to completed) against the training dataset and against the other
// half as a holdout (membership inference, DCR overfitting), with random-forest ML utility; and the request's
// validation, each problem naming its field; the HTML report of a run (409 for a quick evaluation and while running).
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { expectProblem, upload, uploaded } from "../support/datasets.ts"
import {
  acceptedRun,
  getEvaluation,
  pollEvaluation,
  quickResult,
  requestEvaluationReport,
  requestEvaluationRun,
  requestQuickEvaluation
} from "../support/evaluations.ts"
import { accepted, generateAndWait, getGenerator, requestGeneration } from "../support/generators.ts"
import { bearer, http } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, realDataset } from "../support/upload.ts"

let server: RunningServer
let baseUrl: string
let owner: string
let stranger: string
let training: string
let holdout: string
let otherColumns: string
let strangersDataset: string
let generator: string
let quickEvaluation: string

/** The penguins split by row: even rows to train on, odd rows as rows the generator never saw. */
const penguinHalves = () => {
  const [header, ...rows] = realDataset("penguins").toString("utf8").trim().split("\n")
  const half = (parity: number) => [header, ...rows.filter((_, index) => index % 2 === parity)].join("\n") + "\n"
  return { even: half(0), odd: half(1) }
}

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: {
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      RATE_LIMIT_PER_MINUTE: "100000",
      READ_YOUR_WRITES_TIMEOUT: "60 seconds",
      EVALUATION_TIMEOUT: "150 seconds",
      GENERATION_CONCURRENCY: "1"
    },
    readyTimeoutMs: 150_000
  })
  baseUrl = server.baseUrl
  owner = await createAccount(baseUrl, "evaluation-owner")
  stranger = await createAccount(baseUrl, "evaluation-stranger")
  const halves = penguinHalves()
  training = uploaded(await upload(baseUrl, owner, "penguins-train.csv", halves.even)).id
  holdout = uploaded(await upload(baseUrl, owner, "penguins-holdout.csv", halves.odd)).id
  otherColumns = uploaded(await upload(baseUrl, owner, "other.csv", "a,b\n1,x\n2,y\n3,x\n")).id
  strangersDataset = uploaded(await upload(baseUrl, stranger, "penguins.csv", halves.odd)).id
  const { final } = await generateAndWait(baseUrl, owner, training, { generator_type: "gaussian_copula", num_rows: 300, seed: 7 })
  expect(final.status, JSON.stringify(final.error)).toBe("completed")
  generator = final.id
}, 300_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
}, 90_000)

const fieldsOf = (body: unknown) => ((body as { errors?: Array<{ field: string }> }).errors ?? []).map((error) => error.field)

const inUnitRange = (value: number | null) => {
  expect(value).not.toBeNull()
  expect(value!).toBeGreaterThanOrEqual(0)
  expect(value!).toBeLessThanOrEqual(1)
}

describe("the quick evaluation", () => {
  it("answers the spec's result for a completed generator, and keeps it as an evaluation", async () => {
    const result = quickResult(await requestQuickEvaluation(baseUrl, owner, generator))
    quickEvaluation = result.evaluation_id
    expect(result.generator_id).toBe(generator)
    inUnitRange(result.overall_score)
    expect(["Excellent", "Good", "Fair", "Poor"]).toContain(result.quality_level)
    inUnitRange(result.statistical_similarity.ks_test)
    inUnitRange(result.statistical_similarity.chi_square)
    expect(result.statistical_similarity.wasserstein_distance!).toBeGreaterThanOrEqual(0)
    expect(result.statistical_similarity.wasserstein_distance!).toBeLessThan(1)
    expect(result.recommendations.length).toBeGreaterThan(0)
    for (const recommendation of result.recommendations) expect(typeof recommendation).toBe("string")
    expect(result.columns.map((column) => column["column"]).sort()).toEqual(
      ["bill_depth_mm", "bill_length_mm", "body_mass_g", "flipper_length_mm", "island", "sex", "species"]
    )
    expect(result.columns.find((column) => column["column"] === "body_mass_g")).toHaveProperty("ks_complement")

    const record = await getEvaluation(baseUrl, owner, result.evaluation_id)
    expect(record).toMatchObject({
      evaluation_id: result.evaluation_id,
      generator_id: generator,
      dataset_id: training,
      real_dataset_id: training,
      holdout_dataset_id: null,
      kind: "quick",
      safe_to_share: null,
      status: "completed",
      error: null,
      overall_score: result.overall_score,
      quality_level: result.quality_level
    })
    expect(record.completed_at).not.toBeNull()
    expect(record.results).toMatchObject({
      overall_score: result.overall_score,
      statistical_similarity: result.statistical_similarity,
      recommendations: result.recommendations
    })
  }, 200_000)

  it("answers 404 for another user's generator and for an id that is not one", async () => {
    expectProblem(await requestQuickEvaluation(baseUrl, stranger, generator), 404, "not_found")
    expectProblem(await requestQuickEvaluation(baseUrl, owner, "00000000-0000-7000-8000-000000000000"), 404, "not_found")
    expectProblem(await requestQuickEvaluation(baseUrl, owner, "not-a-uuid"), 404, "not_found")
  })

  it("answers 409 not_completed while the generator is running", async () => {
    const running = accepted(
      await requestGeneration(baseUrl, owner, training, { generator_type: "tvae", num_rows: 100, epochs: 10_000 })
    ).generator_id
    const problem = expectProblem(await requestQuickEvaluation(baseUrl, owner, running), 409, "not_completed")
    expect(problem.detail).toContain("completed")
    expectProblem(
      await requestEvaluationRun(baseUrl, owner, { generator_id: running, dataset_id: training }),
      409,
      "not_completed"
    )
    await http(`${baseUrl}/generators/${running}/cancel`, { method: "POST", headers: bearer(owner) })
  })
})

describe("the evaluation run", () => {
  let againstTraining: string

  it("accepts a run against the training dataset with 202 and completes with every part", async () => {
    againstTraining = acceptedRun(await requestEvaluationRun(baseUrl, owner, {
      generator_id: generator,
      dataset_id: training,
      evaluation_sample_size: 500,
      ml_utility_config: { algorithms: ["random_forest"], test_size: 0.25, cross_validation_folds: 3, random_state: 1 },
      target_column: "species"
    }))
    const early = await requestEvaluationReport(baseUrl, owner, againstTraining)
    // A run of 500 rows with cross-validated ML utility takes seconds; the report is only asked for once here.
    if (early.status !== 200) expect(expectProblem(early, 409, "not_completed").detail).toContain("still running")
    const record = await pollEvaluation(baseUrl, owner, againstTraining)
    expect(record.status, JSON.stringify(record.error)).toBe("completed")
    expect(record).toMatchObject({
      kind: "run",
      dataset_id: training,
      holdout_dataset_id: null,
      evaluation_sample_size: 500,
      ml_utility_config: { algorithms: ["random_forest"], test_size: 0.25, cross_validation_folds: 3, random_state: 1, target_column: "species" }
    })
    const results = record.results as Record<string, any>
    for (const key of ["overall_score", "quality_level", "statistical", "diagnostic", "ml_utility", "privacy", "recommendations"]) {
      expect(results, key).toHaveProperty(key)
    }
    inUnitRange(results["overall_score"])
    expect(results["recommendations"].every((message: unknown) => typeof message === "string")).toBe(true)
    // The same findings one entry per kind: every finding in exactly one group, each group naming a column once.
    const groups = results["recommendation_groups"] as Array<{ kind: string; columns: Array<string>; findings: Array<unknown> }>
    expect(groups.reduce((sum, group) => sum + group.findings.length, 0)).toBe(results["recommendations"].length)
    expect(new Set(groups.map((group) => group.kind)).size).toBe(groups.length)
    for (const group of groups) expect(new Set(group.columns).size).toBe(group.columns.length)
    const utility = results["ml_utility"]
    expect(utility).toMatchObject({ target_column: "species", task: "classification" })
    expect(utility.algorithms.map((entry: { algorithm: string }) => entry.algorithm)).toEqual(["random_forest"])
    expect(utility.algorithms[0]).toHaveProperty("utility_ratio")
    inUnitRange(record.privacy_score)
    // The generator held rows out of training: they are the membership-inference attack's non-members.
    const privacy = results["privacy"]
    expect(results["rows"]["holdout"]).toBeGreaterThan(0)
    expect(privacy["membership_inference"]["non_members"]).toBe(results["rows"]["holdout"])
    const interval = privacy["membership_inference"]["interval"]
    expect(interval).toMatchObject({ method: "DeLong" })
    expect(interval.low).toBeLessThanOrEqual(privacy["membership_inference"]["auc"])
    expect(interval.high).toBeGreaterThanOrEqual(privacy["membership_inference"]["auc"])
    // The penguins hold no personal column: every column is learned data, and the verdict rests on the attacks.
    expect(results["column_treatments"].map((column: { name: string; treatment: string }) => column.treatment)).toEqual(Array(7).fill("scored"))
    expect(privacy["verdict"]["checks"].map((check: { name: string }) => check.name)).toEqual([
      "identifier_disclosure", "quasi_identifier_disclosure", "attribute_inference", "membership_inference", "exact_copies"
    ])
    expect(privacy["verdict"]["checks"][0]["status"]).toBe("not_applicable")
    expect(record.safe_to_share).toBe(privacy["verdict"]["safe_to_share"])
    expect(privacy["verdict"]["safe_to_share"]).toBe(privacy["verdict"]["failing"].length === 0 && privacy["verdict"]["not_run"].length === 0)
  }, 200_000)

  it("gives the same results for the same request and random_state, and other samples for another random_state", async () => {
    const run = async (randomState: number) => {
      const id = acceptedRun(await requestEvaluationRun(baseUrl, owner, {
        generator_id: generator,
        dataset_id: training,
        evaluation_sample_size: 200,
        ml_utility_config: { algorithms: ["xgboost"], test_size: 0.25, cross_validation_folds: 2, random_state: randomState },
        target_column: "species"
      }))
      const record = await pollEvaluation(baseUrl, owner, id)
      expect(record.status, JSON.stringify(record.error)).toBe("completed")
      return JSON.stringify(record.results)
    }
    const first = await run(4)
    expect(await run(4)).toBe(first)
    expect(await run(5)).not.toBe(first)
  }, 200_000)

  it("uses another dataset with the same columns as the holdout", async () => {
    const id = acceptedRun(await requestEvaluationRun(baseUrl, owner, {
      generator_id: generator,
      dataset_id: holdout,
      evaluation_sample_size: 500,
      ml_utility_config: { algorithms: ["random_forest"], cross_validation_folds: 2 }
    }))
    const record = await pollEvaluation(baseUrl, owner, id)
    expect(record.status, JSON.stringify(record.error)).toBe("completed")
    expect(record).toMatchObject({ dataset_id: holdout, real_dataset_id: training, holdout_dataset_id: holdout })
    const results = record.results as Record<string, any>
    expect(results["rows"]["holdout"]).toBeGreaterThan(0)
    expect(results["privacy"]["membership_inference"]).not.toBeNull()
    expect(results["privacy"]["dcr_overfitting_protection"]).not.toBeNull()
  }, 200_000)

  it("names each invalid field with 422 validation_failed", async () => {
    const bad = await requestEvaluationRun(baseUrl, owner, {
      generator_id: generator,
      dataset_id: training,
      evaluation_sample_size: 20_001,
      ml_utility_config: { algorithms: ["random_forest", "svm"], test_size: 1, cross_validation_folds: 1, random_state: -1 },
      target_column: "beak"
    })
    expectProblem(bad, 422, "validation_failed")
    expect(fieldsOf(bad.json)).toEqual([
      "evaluation_sample_size",
      "ml_utility_config.algorithms",
      "ml_utility_config.test_size",
      "ml_utility_config.cross_validation_folds",
      "ml_utility_config.random_state",
      "target_column"
    ])
    const empty = await requestEvaluationRun(baseUrl, owner, { generator_id: generator, dataset_id: training, ml_utility_config: { algorithms: [] } })
    expectProblem(empty, 422, "validation_failed")
    expect(fieldsOf(empty.json)).toEqual(["ml_utility_config.algorithms"])
    const wrongType = await requestEvaluationRun(baseUrl, owner, { generator_id: generator, dataset_id: training, ml_utility_config: { test_size: "big" } })
    expectProblem(wrongType, 422, "validation_failed")
    // Once, and only the field itself (not the enclosing object again).
    expect(fieldsOf(wrongType.json)).toEqual(["ml_utility_config.test_size"])
    const columns = await requestEvaluationRun(baseUrl, owner, { generator_id: generator, dataset_id: otherColumns })
    expectProblem(columns, 422, "validation_failed")
    expect(fieldsOf(columns.json)).toEqual(["dataset_id"])
    const { output_dataset_id } = await getGenerator(baseUrl, owner, generator)
    const synthetic = await requestEvaluationRun(baseUrl, owner, { generator_id: generator, dataset_id: output_dataset_id })
    expectProblem(synthetic, 422, "validation_failed")
    expect(fieldsOf(synthetic.json)).toEqual(["dataset_id"])
  })

  it("answers 404 for a generator or dataset that is not the caller's", async () => {
    expectProblem(await requestEvaluationRun(baseUrl, stranger, { generator_id: generator, dataset_id: strangersDataset }), 404, "not_found")
    expectProblem(await requestEvaluationRun(baseUrl, owner, { generator_id: generator, dataset_id: strangersDataset }), 404, "not_found")
  })

  it("shows an evaluation to its owner only", async () => {
    const response = await http(`${baseUrl}/evaluations/${againstTraining}`, { headers: bearer(stranger) })
    expectProblem(response, 404, "not_found")
    expectProblem(await http(`${baseUrl}/evaluations/not-a-uuid`, { headers: bearer(owner) }), 404, "not_found")
  })

  it("renders a completed run as one self-contained HTML page", async () => {
    const record = await getEvaluation(baseUrl, owner, againstTraining)
    const response = await requestEvaluationReport(baseUrl, owner, againstTraining)
    expect(response.status, response.text.slice(0, 500)).toBe(200)
    expect(response.header("content-type")).toBe("text/html; charset=utf-8")
    expect(response.header("content-security-policy")).toContain("default-src 'none'")
    expect(response.header("x-content-type-options")).toBe("nosniff")
    expect(response.header("content-disposition")).toBe(`inline; filename="evaluation-${againstTraining}.html"`)
    const html = response.text
    expect(html.startsWith("<!doctype html>")).toBe(true)
    expect(html).toContain(`${(record.overall_score! * 100).toFixed(1)} %`)
    expect(html).toContain("gaussian_copula")
    // Shown before told: the figures, then the recommendations, then the detail tables.
    const order = ["summary", "distributions", "correlations", "privacy", "utility", "recommendations", "quality", "diagnostic"]
    const positions = order.map((part) => html.indexOf(`id="${part}"`))
    expect(positions.every((position) => position >= 0), JSON.stringify(positions)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(html).toContain(record.safe_to_share ? "Safe to share by these checks." : "Not safe to share.")
    expect(html).not.toMatch(/(?:src|href)\s*=\s*["']?\s*https?:/i)
    expect(html).not.toContain("<script")
  })

  it("answers 409 for a quick evaluation's report and 404 for another user's or a malformed id", async () => {
    const quick = expectProblem(await requestEvaluationReport(baseUrl, owner, quickEvaluation), 409, "not_completed")
    expect(quick.detail).toContain("POST /evaluations/run")
    expectProblem(await requestEvaluationReport(baseUrl, stranger, againstTraining), 404, "not_found")
    expectProblem(await requestEvaluationReport(baseUrl, owner, "not-a-uuid"), 404, "not_found")
    expectProblem(await requestEvaluationReport(baseUrl, owner, "00000000-0000-7000-8000-000000000000"), 404, "not_found")
  })
})
