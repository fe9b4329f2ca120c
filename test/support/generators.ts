// Vitest-free helpers of the generation tests and benchmarks: requests, the generator record decoded with the
// contract (a response of another status or shape throws, failing the test), polling.
import * as Contract from "@synth/contracts"
import { Schema } from "effect"
import { bearer, http, type RawResponse } from "./http.ts"

const expectStatus = (response: RawResponse, status: number) => {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text.slice(0, 500)}`)
}

export type GeneratorRecord = typeof Contract.Generator.Encoded
export type GenerationResponse = typeof Contract.GenerationResponse.Encoded

export const requestGeneration = (baseUrl: string, token: string, datasetId: string, body: unknown): Promise<RawResponse> =>
  http(`${baseUrl}/generators/dataset/${datasetId}/generate`, { method: "POST", headers: bearer(token), body })

/** A generation accepted with 202 and its Location; the decoded response. */
export const accepted = (response: RawResponse): GenerationResponse => {
  expectStatus(response, 202)
  const body = Schema.encodeSync(Contract.GenerationResponse)(Schema.decodeUnknownSync(Contract.GenerationResponse)(response.json))
  const location = response.header("location")
  if (location !== `/generators/${body.generator_id}`) throw new Error(`Location ${location} does not name ${body.generator_id}`)
  return body
}

export const getGenerator = async (baseUrl: string, token: string, id: string): Promise<GeneratorRecord> => {
  const response = await http(`${baseUrl}/generators/${id}`, { headers: bearer(token) })
  expectStatus(response, 200)
  return Schema.encodeSync(Contract.Generator)(Schema.decodeUnknownSync(Contract.Generator)(response.json))
}

/** Polls the generator until `done` says so (or the time is up); every record seen, the last one last. */
export const pollGenerator = async (
  baseUrl: string,
  token: string,
  id: string,
  done: (record: GeneratorRecord) => boolean = (record) => record.status !== "running",
  timeoutMs = 120_000
): Promise<Array<GeneratorRecord>> => {
  const seen: Array<GeneratorRecord> = []
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const record = await getGenerator(baseUrl, token, id)
    seen.push(record)
    if (done(record)) return seen
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`generator ${id} did not get there in ${timeoutMs} ms; last: ${JSON.stringify(seen.at(-1))}`)
}

/** Starts a generation and waits for its end; the final record. */
export const generateAndWait = async (baseUrl: string, token: string, datasetId: string, body: unknown) => {
  const started = accepted(await requestGeneration(baseUrl, token, datasetId, body))
  const records = await pollGenerator(baseUrl, token, started.generator_id)
  return { started, records, final: records.at(-1)! }
}
