import { expect, it, onTestFinished } from "vitest"
import { accepted, pollGenerator, requestGeneration } from "../support/generators.ts"
import { startServer } from "../support/server.ts"
import { realDataset } from "../support/upload.ts"

// The standalone runtime runs unchanged under Deno 2: the sources use `.ts` relative imports and node: built-ins,
// and Deno reads the npm packages from this checkout's node_modules (--node-modules-dir=manual).
it("the standalone runtime starts under Deno, serves the auth flow, generation on pooled threads and a quick evaluation, and exits cleanly on SIGTERM", async () => {
  const server = await startServer({ runtime: "deno" })
  let stopped = false
  onTestFinished(async () => {
    if (!stopped) await server.stop("SIGKILL")
  })

  const response = await fetch(`${server.baseUrl}/health`)
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ status: "healthy" })

  // The parts with the most platform surface: PGlite on disk, scrypt, WebCrypto HMAC for the JWTs.
  const credentials = JSON.stringify({ email: "deno@example.com", password: "correct horse battery" })
  const post = (path: string, body: string) =>
    fetch(`${server.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body })
  expect((await post("/auth/register", credentials)).status).toBe(201)
  const login = await post("/auth/login", credentials)
  expect(login.status).toBe(200)
  const { access_token } = (await login.json()) as { access_token: string }
  const me = await fetch(`${server.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${access_token}` } })
  expect(await me.json()).toMatchObject({ email: "deno@example.com", roles: ["user"] })

  // A generation job: its worker thread (node:worker_threads under Deno, the TypeScript run natively) trains, samples
  // and stores the output.
  const auth = { authorization: `Bearer ${access_token}` }
  const form = new FormData()
  form.append("file", new Blob([new Uint8Array(realDataset("penguins"))]), "penguins.csv")
  const uploaded = await fetch(`${server.baseUrl}/datasets/upload`, { method: "POST", headers: auth, body: form })
  expect(uploaded.status).toBe(201)
  const { id } = (await uploaded.json()) as { id: string }
  const job = await requestGeneration(server.baseUrl, access_token, id, { generator_type: "gaussian_copula", num_rows: 100, seed: 1 })
  const history = await pollGenerator(server.baseUrl, access_token, accepted(job).generator_id, undefined, 240_000).catch(
    (error: unknown) => {
      throw new Error(`${String(error)}\nserver output:\n${server.output.slice(-8_000)}`)
    }
  )
  const final = history.at(-1)!
  expect(final, JSON.stringify(final)).toMatchObject({ status: "completed", progress: 100 })
  const csv = await fetch(`${server.baseUrl}/datasets/${final.output_dataset_id}/download`, { headers: auth })
  expect((await csv.text()).trim().split(/\r?\n/)).toHaveLength(101)

  // A second job on the thread the first left warm (the pool's messages under Deno), and a quick evaluation on the
  // evaluation service's own pooled thread.
  const generatorId = accepted(job).generator_id
  const sampled = await fetch(`${server.baseUrl}/generators/${generatorId}/sample`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ num_rows: 50, seed: 2 })
  })
  expect(sampled.status).toBe(202)
  const { output_dataset_id: sampleId } = (await sampled.json()) as { output_dataset_id: string }
  await pollGenerator(server.baseUrl, access_token, generatorId, (record) =>
    record.samples.some((entry) => entry.output_dataset_id === sampleId && entry.status === "completed"), 120_000)
  const quick = await fetch(`${server.baseUrl}/evaluations/quick/${generatorId}`, { method: "POST", headers: auth })
  expect(quick.status).toBe(200)
  expect(await quick.json()).toMatchObject({ generator_id: generatorId, overall_score: expect.any(Number) })

  stopped = true
  const exit = await server.stop("SIGTERM")
  expect(exit, `output:\n${server.output}`).toEqual({ code: 0, signal: null })
}, 360_000)
