// Vitest-free helpers of the evaluation tests: requests, the evaluation record decoded with the contract (a response
// of another status or shape throws, failing the test), polling.
import * as Contract from "@synth/contracts"
import { Schema } from "effect"
import { bearer, http, type RawResponse } from "./http.ts"

const expectStatus = (response: RawResponse, status: number) => {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text.slice(0, 500)}`)
}

export type EvaluationRecord = typeof Contract.Evaluation.Encoded
export type QuickEvaluationResult = typeof Contract.QuickEvaluationResult.Encoded

export const requestQuickEvaluation = (baseUrl: string, token: string, generatorId: string): Promise<RawResponse> =>
  http(`${baseUrl}/evaluations/quick/${generatorId}`, { method: "POST", headers: bearer(token), timeoutMs: 180_000 })

export const requestEvaluationRun = (baseUrl: string, token: string, body: unknown): Promise<RawResponse> =>
  http(`${baseUrl}/evaluations/run`, { method: "POST", headers: bearer(token), body })

/** A quick evaluation answered 200; the decoded result. */
export const quickResult = (response: RawResponse): QuickEvaluationResult => {
  expectStatus(response, 200)
  return Schema.encodeSync(Contract.QuickEvaluationResult)(Schema.decodeUnknownSync(Contract.QuickEvaluationResult)(response.json))
}

/** A run accepted with 202 and its Location; the evaluation id. */
export const acceptedRun = (response: RawResponse): string => {
  expectStatus(response, 202)
  const body = Schema.decodeUnknownSync(Contract.EvaluationRunAccepted)(response.json)
  const location = response.header("location")
  if (location !== `/evaluations/${body.evaluation_id}`) throw new Error(`Location ${location} does not name ${body.evaluation_id}`)
  return body.evaluation_id
}

export const getEvaluation = async (baseUrl: string, token: string, id: string): Promise<EvaluationRecord> => {
  const response = await http(`${baseUrl}/evaluations/${id}`, { headers: bearer(token) })
  expectStatus(response, 200)
  return Schema.encodeSync(Contract.Evaluation)(Schema.decodeUnknownSync(Contract.Evaluation)(response.json))
}

export const requestEvaluationReport = (baseUrl: string, token: string, id: string): Promise<RawResponse> =>
  http(`${baseUrl}/evaluations/${id}/report`, { headers: bearer(token) })

/** Polls the evaluation until it is no longer running (or the time is up); the last record. */
export const pollEvaluation = async (baseUrl: string, token: string, id: string, timeoutMs = 180_000): Promise<EvaluationRecord> => {
  const deadline = Date.now() + timeoutMs
  let last: EvaluationRecord | undefined
  while (Date.now() < deadline) {
    last = await getEvaluation(baseUrl, token, id)
    if (last.status !== "running") return last
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`evaluation ${id} still running after ${timeoutMs} ms; last: ${JSON.stringify(last)}`)
}
