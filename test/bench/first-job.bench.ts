// The first jobs after start, where the embedded server loads what each job needs (issue 27: job libraries load on
// first use, not at start): on a fresh data dir, the first upload of penguins.csv (344 rows) answered 201 (the
// ingestion), then the first Gaussian copula generation on it, from the 202 to `completed`; and the server's resident
// memory (the process tree) before and after. One JSON object per round on stdout.
//
// Knobs: BENCH_ROUNDS (1), one fresh server per round.
import { readFileSync } from "node:fs"
import { accepted, pollGenerator, requestGeneration } from "../support/generators.ts"
import { bearer, http } from "../support/http.ts"
import { startServer } from "../support/server.ts"
import { createAccount, multipart, realDataset } from "../support/upload.ts"

const rounds = Number(process.env.BENCH_ROUNDS ?? 1)

const residentMiB = (pid: number) =>
  Math.round(Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024)

for (let round = 0; round < rounds; round++) {
  const server = await startServer({ runtime: "node", readyTimeoutMs: 400_000 })
  try {
    const { baseUrl } = server
    const token = await createAccount(baseUrl, "bench-first-job")
    const idleMiB = residentMiB(server.pid)
    const { body, contentType } = multipart([{ name: "file", filename: "penguins.csv", content: realDataset("penguins") }])
    const uploadStarted = performance.now()
    const uploaded = await http(`${baseUrl}/datasets/upload`, {
      method: "POST",
      headers: { ...bearer(token), "content-type": contentType },
      body,
      timeoutMs: 300_000
    })
    const uploadMs = performance.now() - uploadStarted
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`)
    const datasetId = (uploaded.json as { readonly id: string }).id
    const generationStarted = performance.now()
    const job = accepted(await requestGeneration(baseUrl, token, datasetId, { generator_type: "gaussian_copula", num_rows: 344, seed: 1 }))
    const final = (await pollGenerator(baseUrl, token, job.generator_id, undefined, 300_000)).at(-1)!
    const generationMs = performance.now() - generationStarted
    if (final.status !== "completed") throw new Error(`generation ended ${final.status}: ${JSON.stringify(final.error)}`)
    const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0]
    console.log(JSON.stringify({
      bench: "first-job",
      round,
      uploadMs: Math.round(uploadMs),
      generationMs: Math.round(generationMs),
      residentBeforeMiB: idleMiB,
      residentAfterMiB: residentMiB(server.pid),
      load
    }))
  } finally {
    await server.stop("SIGTERM", 60_000)
  }
}
