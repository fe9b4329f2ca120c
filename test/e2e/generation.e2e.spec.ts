// Black-box end-to-end tests of generation jobs against the standalone runtime started with Node: validation of the
// request, the lifecycle of a Gaussian copula job (running → completed, progress, record fields, the output dataset
// with the input's columns and types, values inside the input's categories and ranges), reproducibility by seed,
// sampling more rows from the stored model, 409 before completion, cancellation of a running and of a queued job,
// and other users' 404s. GENERATION_CONCURRENCY=1 makes a second job wait in the queue.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { download, expectProblem, getDataset, parseCsv, upload, uploaded } from "../support/datasets.ts"
import {
  accepted,
  generateAndWait,
  getGenerator,
  pollGenerator,
  requestGeneration
} from "../support/generators.ts"
import { bearer, http } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, realDataset } from "../support/upload.ts"

let server: RunningServer
let baseUrl: string
let owner: string
let stranger: string
let penguins: string
let diamonds: string

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: {
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      RATE_LIMIT_PER_MINUTE: "100000",
      READ_YOUR_WRITES_TIMEOUT: "60 seconds",
      GENERATION_CONCURRENCY: "1"
    },
    readyTimeoutMs: 150_000
  })
  baseUrl = server.baseUrl
  owner = await createAccount(baseUrl, "generation-owner")
  stranger = await createAccount(baseUrl, "generation-stranger")
  penguins = uploaded(await upload(baseUrl, owner, "penguins.csv", realDataset("penguins"))).id
  diamonds = uploaded(await upload(baseUrl, owner, "diamonds.csv", realDataset("diamonds"))).id
}, 240_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
}, 90_000)

const csvOf = async (token: string, datasetId: string) => {
  const response = await download(baseUrl, token, datasetId)
  expect(response.status, response.text.slice(0, 300)).toBe(200)
  return response.text
}

const fieldsOf = (body: unknown) => ((body as { errors?: Array<{ field: string }> }).errors ?? []).map((error) => error.field)

describe("the generation request", () => {
  it("answers 404 for an unknown dataset and for another user's", async () => {
    expectProblem(await requestGeneration(baseUrl, owner, "00000000-0000-7000-8000-000000000000", { generator_type: "gaussian_copula", num_rows: 10 }), 404, "not_found")
    expectProblem(await requestGeneration(baseUrl, stranger, penguins, { generator_type: "gaussian_copula", num_rows: 10 }), 404, "not_found")
    expectProblem(await requestGeneration(baseUrl, owner, "not-a-uuid", { generator_type: "gaussian_copula", num_rows: 10 }), 404, "not_found")
  })

  it("names every invalid field at once", async () => {
    const response = await requestGeneration(baseUrl, owner, penguins, { generator_type: "gan", num_rows: 0, seed: -1 })
    expectProblem(response, 422, "validation_failed")
    expect(fieldsOf(response.json).sort()).toEqual(["generator_type", "num_rows", "seed"])
    const tooMany = await requestGeneration(baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: 10_000_001 })
    expectProblem(tooMany, 422, "validation_failed")
    expect(fieldsOf(tooMany.json)).toEqual(["num_rows"])
    const fractional = await requestGeneration(baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: 2.5 })
    expectProblem(fractional, 422, "validation_failed")
    expect(fieldsOf(fractional.json)).toEqual(["num_rows"])
  })

  it("checks the neural models' epochs, batch size and epsilon", async () => {
    const ctgan = await requestGeneration(baseUrl, owner, penguins, { generator_type: "ctgan", num_rows: 10, epochs: 0, batch_size: 15 })
    expectProblem(ctgan, 422, "validation_failed")
    expect(fieldsOf(ctgan.json).sort()).toEqual(["batch_size", "epochs"])
    const dp = await requestGeneration(baseUrl, owner, penguins, { generator_type: "dp-ctgan", num_rows: 10, target_epsilon: 0 })
    expectProblem(dp, 422, "invalid_epsilon")
    expect((dp.json as { detail: string }).detail).toMatch(/target_epsilon must be greater than 0/)
    const noEpsilon = await requestGeneration(baseUrl, owner, penguins, { generator_type: "dp-ctgan", num_rows: 10 })
    expectProblem(noEpsilon, 422, "invalid_epsilon")
    expect((noEpsilon.json as { detail: string }).detail).toMatch(/target_epsilon is required for dp-ctgan/)
    const both = await requestGeneration(baseUrl, owner, penguins, { generator_type: "dp-ctgan", num_rows: 0, target_epsilon: -1 })
    expectProblem(both, 422, "validation_failed")
    expect(fieldsOf(both.json).sort()).toEqual(["num_rows", "target_epsilon"])
  })

  it("refuses a dp-ctgan configuration the accountant finds over budget, with remedies, and batches above the row count", async () => {
    // Diamonds (53,940 rows, 48,546 trained on after the holdout), ε = 1 (0.75 for DP-SGD) over 1,000 epochs of
    // batches of 100: the noise per row would be 0.086 (> 0.05).
    const overBudget = await requestGeneration(baseUrl, owner, diamonds, {
      generator_type: "dp-ctgan", num_rows: 10, target_epsilon: 1, epochs: 1_000, batch_size: 100
    })
    expectProblem(overBudget, 422, "privacy_budget_exceeded")
    const problem = overBudget.json as { detail: string; recommended_epochs: number | null; recommended_batch_size: number | null }
    expect(problem.detail).toMatch(/^privacy budget exceeded: the training's ε = 0.75 of 1 .*Increase batch_size to 7230 or more/)
    expect([problem.recommended_epochs, problem.recommended_batch_size]).toEqual([null, 7230])
    // Penguins (344 rows): nothing but a larger ε helps, and the detail says so.
    const hopeless = await requestGeneration(baseUrl, owner, penguins, {
      generator_type: "dp-ctgan", num_rows: 10, target_epsilon: 1, epochs: 300, batch_size: 10
    })
    expectProblem(hopeless, 422, "privacy_budget_exceeded")
    expect((hopeless.json as { detail: string }).detail).toMatch(/Raise target_epsilon/)
    const tooBig = await requestGeneration(baseUrl, owner, penguins, { generator_type: "dp-ctgan", num_rows: 10, target_epsilon: 5 })
    expectProblem(tooBig, 422, "validation_failed")
    expect(fieldsOf(tooBig.json)).toEqual(["batch_size"])
    const listed = await http(`${baseUrl}/generators/`, { headers: bearer(owner) })
    expect((listed.json as Array<{ generator_type: string }>).some((row) => row.generator_type === "dp-ctgan")).toBe(false)
  })

  it("refuses a body that is not JSON or has wrong JSON types", async () => {
    const malformed = await http(`${baseUrl}/generators/dataset/${penguins}/generate`, {
      method: "POST",
      headers: { ...bearer(owner), "content-type": "application/json" },
      body: "{not json"
    })
    expect([400, 422]).toContain(malformed.status)
    const wrongType = await requestGeneration(baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: "ten" })
    expectProblem(wrongType, 422, "validation_failed")
  })
})

describe("a Gaussian copula job", () => {
  let generatorId: string
  let outputId: string

  it("is running from acceptance and completes with the record the spec and the issue ask for", async () => {
    const response = await requestGeneration(baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: 500, seed: 7, epochs: 5 })
    const started = accepted(response)
    expect(started.status).toBe("running")
    expect(started.estimated_time).toMatch(/^about \d+ (second|seconds|minutes|hours)$/)
    expect(started.estimated_seconds).toBeGreaterThan(0)
    expect(started.message).toContain("epochs is not used by gaussian_copula")
    generatorId = started.generator_id
    const first = await getGenerator(baseUrl, owner, generatorId)
    expect(first.status === "running" || first.status === "completed").toBe(true)
    expect(first).toMatchObject({ id: generatorId, generator_type: "gaussian_copula", dataset_id: penguins, seed: 7 })
    expect(first.parameters).toEqual({ num_rows: 500, epochs: null, batch_size: null, target_epsilon: null })
    if (first.status === "running") expect(first.output_dataset_id).toBeNull()
    const records = await pollGenerator(baseUrl, owner, generatorId)
    const progress = records.map((record) => record.progress)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    const final = records.at(-1)!
    expect(final).toMatchObject({ status: "completed", progress: 100, phase: null, attempts: 1, error: null })
    expect(final.model).toMatchObject({ format: "synth.gaussian-copula", version: 1 })
    expect(final.model!.size).toBeGreaterThan(0)
    expect(final.timings.fit_ms).toBeGreaterThanOrEqual(0)
    expect(final.timings.total_ms).toBeGreaterThanOrEqual(final.timings.fit_ms!)
    expect(Date.parse(final.updated_at)).toBeGreaterThanOrEqual(Date.parse(final.created_at))
    expect(final.output_dataset_id).toMatch(/^[0-9a-f-]{36}$/)
    outputId = final.output_dataset_id!
  }, 120_000)

  it("produces a synthetic dataset with the input's columns and types, inside its categories and ranges", async () => {
    const source = await getDataset(baseUrl, owner, penguins)
    const output = await getDataset(baseUrl, owner, outputId)
    expect(output).toMatchObject({ source: "synthetic", generator_id: generatorId, row_count: 500, status: "uploaded" })
    expect(output.columns.map(({ name, type }) => ({ name, type }))).toEqual(source.columns.map(({ name, type }) => ({ name, type })))
    const [realHeader, ...realRows] = parseCsv(await csvOf(owner, penguins))
    const [header, ...rows] = parseCsv(await csvOf(owner, outputId))
    expect(header).toEqual(realHeader)
    expect(rows).toHaveLength(500)
    source.columns.forEach((column, index) => {
      const real = realRows.map((row) => row[index]!).filter((value) => value !== "")
      const synthetic = rows.map((row) => row[index]!).filter((value) => value !== "")
      if (column.type === "string" || column.type === "boolean") {
        const known = new Set(real)
        expect(synthetic.filter((value) => !known.has(value)), column.name).toEqual([])
      } else {
        const numbers = real.map(Number)
        const [min, max] = [Math.min(...numbers), Math.max(...numbers)]
        for (const value of synthetic.map(Number)) {
          expect(value, column.name).toBeGreaterThanOrEqual(min)
          expect(value, column.name).toBeLessThanOrEqual(max)
        }
      }
      // Missing values are generated at about the learned rate (penguins' sex is missing in 11 of 344 rows).
      if (column.missing_count > 0) expect(rows.some((row) => row[index] === ""), column.name).toBe(true)
    })
    const list = (await http(`${baseUrl}/datasets/`, { headers: bearer(owner) })).json as Array<{ id: string }>
    expect(list.map((item) => item.id)).toContain(outputId)
  })

  it("gives the same rows for the same seed and other rows for another seed", async () => {
    const again = await generateAndWait(baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: 500, seed: 7 })
    expect(again.final.status).toBe("completed")
    expect(await csvOf(owner, again.final.output_dataset_id!)).toBe(await csvOf(owner, outputId))
    const other = await generateAndWait(baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: 500, seed: 8 })
    expect(await csvOf(owner, other.final.output_dataset_id!)).not.toBe(await csvOf(owner, outputId))
  }, 120_000)

  it("draws more rows from the stored model as a new dataset, reproducibly", async () => {
    const sample = async (seed: number) => {
      const response = await http(`${baseUrl}/generators/${generatorId}/sample`, { method: "POST", headers: bearer(owner), body: { num_rows: 1000, seed } })
      expect(response.status, response.text).toBe(202)
      const body = response.json as { output_dataset_id: string; seed: number; status: string }
      expect(response.header("location")).toBe(`/datasets/${body.output_dataset_id}`)
      expect(body).toMatchObject({ seed, status: "running" })
      await pollGenerator(baseUrl, owner, generatorId, (record) =>
        record.samples.some((entry) => entry.output_dataset_id === body.output_dataset_id && entry.status === "completed"))
      return body.output_dataset_id
    }
    const first = await sample(3)
    const second = await sample(3)
    expect(first).not.toBe(second)
    const detail = await getDataset(baseUrl, owner, first)
    expect(detail).toMatchObject({ source: "synthetic", generator_id: generatorId, row_count: 1000 })
    const csv = await csvOf(owner, first)
    expect(parseCsv(csv)).toHaveLength(1001)
    expect(await csvOf(owner, second)).toBe(csv)
    const record = await getGenerator(baseUrl, owner, generatorId)
    expect(record.samples.map((entry) => entry.output_dataset_id)).toEqual([first, second])
    const invalid = await http(`${baseUrl}/generators/${generatorId}/sample`, { method: "POST", headers: bearer(owner), body: { num_rows: 0 } })
    expectProblem(invalid, 422, "validation_failed")
  }, 120_000)

  it("is nobody else's: 404 for another user on every generator endpoint and on its output", async () => {
    expectProblem(await http(`${baseUrl}/generators/${generatorId}`, { headers: bearer(stranger) }), 404, "not_found")
    expectProblem(await http(`${baseUrl}/generators/${generatorId}/cancel`, { method: "POST", headers: bearer(stranger) }), 404, "not_found")
    expectProblem(await http(`${baseUrl}/generators/${generatorId}/sample`, { method: "POST", headers: bearer(stranger), body: { num_rows: 5 } }), 404, "not_found")
    expectProblem(await download(baseUrl, stranger, outputId), 404, "not_found")
    const theirs = await http(`${baseUrl}/generators/`, { headers: bearer(stranger) })
    expect(theirs.json).toEqual([])
  })

  it("lists the owner's generators newest first, paged with a Link header", async () => {
    const all = (await http(`${baseUrl}/generators/`, { headers: bearer(owner) })).json as Array<{ id: string; created_at: string }>
    expect(all.length).toBeGreaterThanOrEqual(3)
    expect(all.map((record) => record.id)).toContain(generatorId)
    expect(all.map((record) => record.id)).toEqual([...all.map((record) => record.id)].sort().reverse())
    const firstPage = await http(`${baseUrl}/generators/?limit=1`, { headers: bearer(owner) })
    expect(firstPage.json).toHaveLength(1)
    const next = firstPage.header("link")!.match(/<([^>]+)>; rel="next"/)![1]!
    const secondPage = await http(`${baseUrl}${next}`, { headers: bearer(owner) })
    expect((secondPage.json as Array<{ id: string }>)[0]!.id).toBe(all[1]!.id)
  })
})

describe("neural jobs", () => {
  it("trains TVAE: losses per epoch in the record, the model stored, the penguins' columns in the output", async () => {
    const { final } = await generateAndWait(baseUrl, owner, penguins, {
      generator_type: "tvae", num_rows: 120, epochs: 4, batch_size: 50, seed: 11
    })
    expect(final).toMatchObject({ status: "completed", progress: 100, error: null, warnings: [] })
    expect(final.privacy).toMatchObject({
      protections: { rare_category_threshold: 5, value_protection: true, rare_category_protection: true, similarity_filter: true, holdout_share: 0.1 },
      training_rows: 310,
      holdout_rows: 34,
      target_epsilon: null,
      epsilon_spent: null,
      budget: null
    })
    expect(final.columns?.map((column) => column.name)).toEqual(["species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "sex"])
    expect(final.parameters).toEqual({ num_rows: 120, epochs: 4, batch_size: 50, target_epsilon: null })
    expect(final.loss_history.map((record) => record.epoch)).toEqual([1, 2, 3, 4])
    expect(final.loss_history.every((record) => Number.isFinite(record.losses["loss"]))).toBe(true)
    expect(final.model).toMatchObject({ format: "synth.tvae", version: 1 })
    const [realHeader] = parseCsv(await csvOf(owner, penguins))
    const rows = parseCsv(await csvOf(owner, final.output_dataset_id!))
    expect(rows[0]).toEqual(realHeader)
    expect(rows).toHaveLength(121)
  }, 180_000)
})

describe("before completion and cancellation", () => {
  it("answers 409 for sampling a running generator and for downloading an output not stored yet", async () => {
    const big = accepted(await requestGeneration(baseUrl, owner, diamonds, { generator_type: "gaussian_copula", num_rows: 500_000, seed: 1 }))
    const early = await http(`${baseUrl}/generators/${big.generator_id}/sample`, { method: "POST", headers: bearer(owner), body: { num_rows: 5 } })
    expectProblem(early, 409, "not_completed")
    const done = (await pollGenerator(baseUrl, owner, big.generator_id)).at(-1)!
    expect(done.status).toBe("completed")
    const response = await http(`${baseUrl}/generators/${big.generator_id}/sample`, { method: "POST", headers: bearer(owner), body: { num_rows: 500_000 } })
    const pending = (response.json as { output_dataset_id: string }).output_dataset_id
    expectProblem(await download(baseUrl, owner, pending), 409, "not_completed")
    expectProblem(await http(`${baseUrl}/datasets/${pending}`, { headers: bearer(owner) }), 409, "not_completed")
    await pollGenerator(baseUrl, owner, big.generator_id, (record) => record.samples.every((entry) => entry.status !== "running"))
    expect((await getDataset(baseUrl, owner, pending)).row_count).toBe(500_000)
  }, 180_000)

  it("stops a running job within about a second, and a queued one at once", async () => {
    const running = accepted(await requestGeneration(baseUrl, owner, diamonds, { generator_type: "gaussian_copula", num_rows: 3_000_000 }))
    const queued = accepted(await requestGeneration(baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: 10 }))
    await pollGenerator(baseUrl, owner, running.generator_id, (record) => record.phase === "fitting" || record.phase === "sampling")
    expect((await getGenerator(baseUrl, owner, queued.generator_id)).phase).toBe("queued")

    const queuedCancel = await http(`${baseUrl}/generators/${queued.generator_id}/cancel`, { method: "POST", headers: bearer(owner) })
    expect(queuedCancel.status, queuedCancel.text).toBe(200)
    expect(queuedCancel.json).toMatchObject({ status: "cancelled", output_dataset_id: null, attempts: 0 })

    const askedAt = Date.now()
    const cancelled = await http(`${baseUrl}/generators/${running.generator_id}/cancel`, { method: "POST", headers: bearer(owner) })
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(Date.now() - askedAt).toBeLessThan(5_000)
    expect(cancelled.json).toMatchObject({ status: "cancelled", output_dataset_id: null, phase: null })

    expectProblem(await http(`${baseUrl}/generators/${running.generator_id}/cancel`, { method: "POST", headers: bearer(owner) }), 409, "already_finished")
    // The slot is free again: the next job runs.
    const next = await generateAndWait(baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: 10 })
    expect(next.final.status).toBe("completed")
    // And the cancelled job stays cancelled.
    expect((await getGenerator(baseUrl, owner, running.generator_id)).status).toBe("cancelled")
  }, 180_000)
})

describe("POST /generators/dp/validate-config", () => {
  const validate = (token: string, body: unknown) =>
    http(`${baseUrl}/generators/dp/validate-config`, { method: "POST", headers: bearer(token), body })

  it("accounts a configuration on the dataset: ε spent within the target, δ below 1/n, σ, steps, band", async () => {
    const response = await validate(owner, { dataset_id: diamonds, target_epsilon: 5, epochs: 50, batch_size: 500 })
    expect(response.status, response.text).toBe(200)
    const body = response.json as Record<string, unknown>
    expect(body).toMatchObject({
      valid: true,
      reason: null,
      dataset_id: diamonds,
      // The rows training sees: the dataset's 53,940 less the 10 % a generation holds out.
      rows: 48_546,
      target_epsilon: 5,
      epochs: 50,
      batch_size: 500,
      accountant: "rdp",
      privacy_level: "balanced",
      expected_utility: "85-90%",
      steps: Math.floor(50 / (500 / 48_546)),
      warnings: [],
      recommendations: []
    })
    expect(body.delta).toBeLessThan(1 / 48_546)
    expect(body.epsilon as number).toBeLessThanOrEqual(5)
    expect(body.epsilon as number).toBeGreaterThan(4.99)
    const budget = body.budget as { preprocessing: number; training: number }
    expect(budget.preprocessing).toBe(1.25)
    expect(budget.preprocessing + budget.training).toBeCloseTo(body.epsilon as number, 12)
    expect(body.noise_multiplier as number).toBeGreaterThan(0)
    expect(body.noise_per_row).toBeCloseTo((body.noise_multiplier as number) / 500, 12)
  })

  it("says the budget is exceeded, with remedies, when the noise would drown training", async () => {
    const response = await validate(owner, { dataset_id: penguins, target_epsilon: 0.5, epochs: 1000, batch_size: 100 })
    expect(response.status, response.text).toBe(200)
    const body = response.json as { valid: boolean; reason: string; epsilon: unknown; warnings: Array<string>; recommendations: Array<string>; privacy_level: string }
    expect(body.valid).toBe(false)
    expect(body.reason).toMatch(/^privacy budget exceeded: /)
    expect(body.epsilon).toBeNull()
    expect(body.privacy_level).toBe("high_privacy")
    // Penguins' 344 rows less the 34 held out.
    expect(body.warnings.some((warning) => warning.includes("310 rows"))).toBe(true)
    expect(body.recommendations.length).toBeGreaterThan(0)
  })

  it("uses the generation request's defaults for epochs and batch_size", async () => {
    const response = await validate(owner, { dataset_id: diamonds, target_epsilon: 10 })
    expect(response.status, response.text).toBe(200)
    expect(response.json).toMatchObject({ epochs: 300, batch_size: 500, privacy_level: "high_utility", expected_utility: "90-95%" })
  })

  it("refuses bad values with the spec's meanings", async () => {
    for (const target_epsilon of [0, -1, null, 1_001]) {
      const response = await validate(owner, { dataset_id: diamonds, target_epsilon })
      expectProblem(response, 422, "invalid_epsilon")
      expect((response.json as { detail: string }).detail).toMatch(/^Invalid epsilon: /)
    }
    const fields = await validate(owner, { dataset_id: penguins, target_epsilon: 1, epochs: 0, batch_size: 1000 })
    expectProblem(fields, 422, "validation_failed")
    expect(fieldsOf(fields.json).sort()).toEqual(["batch_size", "epochs"])
    expectProblem(await validate(owner, { dataset_id: penguins, target_epsilon: 1, batch_size: 105 }), 422, "validation_failed")
    expectProblem(await validate(owner, { target_epsilon: 1 }), 422, "validation_failed")
  })

  it("answers 404 for an unknown dataset and another user's", async () => {
    expectProblem(await validate(owner, { dataset_id: "00000000-0000-7000-8000-000000000000", target_epsilon: 1 }), 404, "not_found")
    expectProblem(await validate(stranger, { dataset_id: diamonds, target_epsilon: 1 }), 404, "not_found")
  })
})

describe("outputs keep the source's forms", () => {
  const pad = (value: number) => String(value).padStart(2, "0")
  const header = "member,flag,active,joined,seen,amount,score,count,city"
  /** A file that writes each column its own way: Yes/No, 1/0, TRUE/FALSE, US dates, AM/PM times, euros, thousands. */
  const file = [header, ...Array.from({ length: 240 }, (_, i) => {
    const [day, month] = [1 + (i % 28), 1 + (i % 12)]
    const euro = ((1_000 + ((i * 7_919) % 90_000)) / 100).toFixed(2).replace(".", ",").replace(/^(\d+)(\d{3}),/, "$1.$2,")
    return [
      i % 3 === 0 ? "Yes" : "No",
      i % 11 === 0 ? "" : String(i % 2),
      i % 5 === 0 ? "TRUE" : "FALSE",
      `${pad(month)}/${pad(day)}/20${pad(10 + (i % 12))}`,
      `${month}/${day}/2024 ${1 + (i % 12)}:${pad((i * 7) % 60)} ${i % 2 === 0 ? "AM" : "PM"}`,
      `"${euro}"`,
      (((i * 37) % 1_000) / 4).toFixed(2),
      `"${(1_000 + ((i * 613_457) % 9_800_000)).toLocaleString("en-US")}"`,
      ["Lyon", "Oslo", "Lima", "Kyiv"][i % 4]
    ].join(",")
  })].join("\r\n")

  /** How each column's cells must look in the download; an empty cell is a missing value. */
  const shapes: Record<string, RegExp> = {
    member: /^(Yes|No)$/,
    flag: /^[10]$/,
    active: /^(TRUE|FALSE)$/,
    joined: /^\d{2}\/\d{2}\/\d{4}$/,
    seen: /^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2} (AM|PM)$/,
    amount: /^-?\d{1,3}(\.\d{3})*,\d{2}$/,
    score: /^-?\d+\.\d{2}$/,
    count: /^-?\d{1,3}(,\d{3})*$/,
    city: /^(Lyon|Oslo|Lima|Kyiv)$/
  }

  const expectSourceForms = async (datasetId: string, rowCount: number) => {
    const [downloadedHeader, ...rows] = parseCsv(await csvOf(owner, datasetId))
    expect(downloadedHeader).toEqual(header.split(","))
    expect(rows).toHaveLength(rowCount)
    const wrong = rows.flatMap((row) =>
      downloadedHeader!.flatMap((name, column) => (row[column] === "" || shapes[name]!.test(row[column]!) ? [] : [`${name}: ${row[column]}`]))
    )
    expect(wrong.slice(0, 5)).toEqual([])
    // No column came back empty, so the shapes above were checked on values.
    expect(downloadedHeader!.filter((_, column) => rows.every((row) => row[column] === ""))).toEqual([])
    const asJson = await download(baseUrl, owner, datasetId, "?format=json")
    const first = (asJson.json as Array<Record<string, unknown>>)[0]!
    expect([typeof first["member"], typeof first["amount"]]).toEqual(["boolean", "number"])
  }

  let source: string
  beforeAll(async () => {
    source = uploaded(await upload(baseUrl, owner, "forms-survey.csv", file)).id
    // The upload itself downloads as written.
    expect(parseCsv(await csvOf(owner, source))).toEqual(parseCsv(file))
  }, 120_000)

  for (const request of [
    { generator_type: "gaussian_copula", num_rows: 300, seed: 5 },
    { generator_type: "ctgan", num_rows: 300, seed: 5, epochs: 2, batch_size: 50 }
  ]) {
    it(`${request.generator_type}: the output and a later sample are written as the source was`, async () => {
      const { final } = await generateAndWait(baseUrl, owner, source, request)
      expect(final.status, JSON.stringify(final.error)).toBe("completed")
      await expectSourceForms(final.output_dataset_id!, 300)
      const response = await http(`${baseUrl}/generators/${final.id}/sample`, { method: "POST", headers: bearer(owner), body: { num_rows: 200, seed: 9 } })
      expect(response.status, response.text).toBe(202)
      const sampleId = (response.json as { output_dataset_id: string }).output_dataset_id
      await pollGenerator(baseUrl, owner, final.id, (record) =>
        record.samples.some((entry) => entry.output_dataset_id === sampleId && entry.status === "completed"))
      await expectSourceForms(sampleId, 200)
    }, 240_000)
  }
})
