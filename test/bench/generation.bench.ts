// Generation jobs end to end through the standalone runtime (Node): a Gaussian copula job on each sample dataset and
// on diamonds for 10 k, 100 k and 1 M rows, timed from the 202 to `completed` (polling every 50 ms), beside the
// speed model's `estimated_seconds` and the worker's own timings (fit, sample, total). Also the seconds from a
// cancel request to its 200. One JSON object per job on stdout, a markdown table (medians over rounds) on stderr.
//
// Knobs: BENCH_GENERATION_ROUNDS (3).
import { accepted, getGenerator, pollGenerator, requestGeneration } from "../support/generators.ts"
import { bearer, http } from "../support/http.ts"
import { startServer } from "../support/server.ts"
import { createAccount, multipart, realDataset } from "../support/upload.ts"

const upload = async (baseUrl: string, token: string, name: string, content: Buffer): Promise<string> => {
  const { body, contentType } = multipart([{ name: "file", filename: name, content }])
  const response = await http(`${baseUrl}/datasets/upload`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": contentType },
    body,
    timeoutMs: 120_000
  })
  if (response.status !== 201) throw new Error(`upload of ${name}: ${response.status} ${response.text}`)
  return (response.json as { readonly id: string }).id
}

const rounds = Number(process.env.BENCH_GENERATION_ROUNDS ?? 3)
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const server = await startServer({
  runtime: "node",
  env: { RATE_LIMIT_PER_MINUTE: "100000", AUTH_RATE_LIMIT_PER_MINUTE: "1000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
  readyTimeoutMs: 180_000
})
try {
  const { baseUrl } = server
  const token = await createAccount(baseUrl, "bench-generation")
  const ids: Record<string, string> = {}
  for (const name of ["penguins", "credit_data", "telco_churn", "diamonds"] as const) {
    ids[name] = await upload(baseUrl, token, `${name}.csv`, realDataset(name))
  }
  const cases: ReadonlyArray<{ readonly dataset: string; readonly rows: number }> = [
    { dataset: "penguins", rows: 344 },
    { dataset: "credit_data", rows: 4454 },
    { dataset: "telco_churn", rows: 7043 },
    { dataset: "diamonds", rows: 10_000 },
    { dataset: "diamonds", rows: 100_000 },
    { dataset: "diamonds", rows: 1_000_000 }
  ]
  const table: Array<string> = []
  for (const { dataset, rows } of cases) {
    const measured: Array<{ wall: number; estimate: number; fit: number; sample: number; total: number }> = []
    for (let round = 0; round < rounds; round++) {
      const started = performance.now()
      const job = accepted(await requestGeneration(baseUrl, token, ids[dataset]!, { generator_type: "gaussian_copula", num_rows: rows, seed: round }))
      const final = (await pollGenerator(baseUrl, token, job.generator_id, undefined, 600_000)).at(-1)!
      const wall = (performance.now() - started) / 1000
      if (final.status !== "completed") throw new Error(`job ${job.generator_id} ended ${final.status}: ${JSON.stringify(final.error)}`)
      const result = {
        dataset,
        rows,
        round,
        wallSeconds: +wall.toFixed(2),
        estimatedSeconds: job.estimated_seconds,
        fitMs: final.timings.fit_ms!,
        sampleMs: final.timings.sample_ms!,
        totalMs: final.timings.total_ms!
      }
      console.log(JSON.stringify(result))
      measured.push({ wall, estimate: job.estimated_seconds, fit: result.fitMs, sample: result.sampleMs, total: result.totalMs })
    }
    const wall = median(measured.map((entry) => entry.wall))
    const estimate = measured[0]!.estimate
    table.push(
      `| ${dataset} | ${rows.toLocaleString("en")} | ${wall.toFixed(2)} | ${estimate.toFixed(1)} | ${(estimate / wall).toFixed(2)} | ` +
        `${median(measured.map((entry) => entry.fit)).toFixed(0)} | ${median(measured.map((entry) => entry.sample)).toFixed(0)} | ` +
        `${median(measured.map((entry) => entry.total)).toFixed(0)} |`
    )
  }

  const cancelSeconds: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const job = accepted(await requestGeneration(baseUrl, token, ids.diamonds!, { generator_type: "gaussian_copula", num_rows: 3_000_000 }))
    await pollGenerator(baseUrl, token, job.generator_id, (record) => record.phase === "fitting" || record.phase === "sampling")
    const asked = performance.now()
    const response = await http(`${baseUrl}/generators/${job.generator_id}/cancel`, { method: "POST", headers: bearer(token) })
    cancelSeconds.push((performance.now() - asked) / 1000)
    if (response.status !== 200 || (await getGenerator(baseUrl, token, job.generator_id)).status !== "cancelled") {
      throw new Error(`cancel answered ${response.status}: ${response.text}`)
    }
  }
  console.log(JSON.stringify({ cancelSeconds }))

  console.error(`rounds: ${rounds}; medians`)
  console.error("| dataset | rows generated | request → completed (s) | estimated (s) | estimate / measured | fit (ms) | sample (ms) | worker total (ms) |")
  console.error("|---|---:|---:|---:|---:|---:|---:|---:|")
  for (const line of table) console.error(line)
  console.error(`cancel request → 200 cancelled: median ${median(cancelSeconds).toFixed(3)} s (${cancelSeconds.map((s) => s.toFixed(3)).join(", ")})`)
} finally {
  await server.stop("SIGTERM", 60_000)
}
