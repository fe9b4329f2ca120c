import { HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"
import { describe, expect, it } from "@effect/vitest"
import { NotFound, ValidationFailed } from "@synth/contracts"
import { Effect } from "effect"
import { problemLine, refusal } from "./refusal.ts"

const baseUrl = "http://127.0.0.1:8000"
const request = HttpClientRequest.post(`${baseUrl}/generators/dataset/x/generate`)

const answer = (status: number, body: string) =>
  HttpClientResponse.fromWeb(request, new Response(body, { status, headers: { "content-type": "application/problem+json" } }))

const messageOf = (error: Parameters<ReturnType<typeof refusal>>[0]) =>
  Effect.map(refusal(baseUrl)(error), (failure) => failure.message)

describe("problemLine", () => {
  it("follows a validation failure's detail with each field's problem, on one line", () => {
    const line = problemLine({
      detail: "The generation request has invalid fields;\nsee errors.",
      errors: [
        { field: "num_rows", message: "must be a whole number from 1 to 10000000 (got 0)" },
        { field: "target_epsilon", message: "target_epsilon is required for dp-ctgan" }
      ]
    })
    expect(line).toBe(
      "The generation request has invalid fields; see errors. num_rows: must be a whole number from 1 to 10000000 " +
        "(got 0). target_epsilon is required for dp-ctgan."
    )
  })
})

describe("refusal", () => {
  it.effect("says a declared problem's detail", () =>
    Effect.gen(function*() {
      expect(yield* messageOf(new NotFound({ detail: "There is no dataset \"x\" among yours." }))).toBe(
        "There is no dataset \"x\" among yours."
      )
      const invalid = new ValidationFailed({ detail: "Invalid fields.", errors: [{ field: "seed", message: "must be whole" }] })
      expect(yield* messageOf(invalid)).toBe("Invalid fields. seed: must be whole.")
    }))

  it.effect("reads the problem of a status the endpoint does not declare, or names the status", () =>
    Effect.gen(function*() {
      const problem = {
        type: "/errors/malformed_request",
        title: "Malformed request",
        status: 400,
        detail: "The body is not JSON.",
        code: "malformed_request",
        request_id: "r1"
      }
      const declaredLess = (status: number, body: string) =>
        new HttpClientError.HttpClientError({
          reason: new HttpClientError.StatusCodeError({ request, response: answer(status, body) })
        })
      expect(yield* messageOf(declaredLess(400, JSON.stringify(problem)))).toBe("The body is not JSON.")
      expect(yield* messageOf(declaredLess(502, "<html>Bad gateway</html>"))).toBe(
        `the server answered 502 to POST ${baseUrl}/generators/dataset/x/generate`
      )
    }))

  it.effect("names the address and the innermost cause when the server cannot be reached", () =>
    Effect.gen(function*() {
      const cause = new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:8000") })
      const unreachable = new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause }) })
      expect(yield* messageOf(unreachable)).toBe(`could not reach ${baseUrl}: connect ECONNREFUSED 127.0.0.1:8000`)
    }))
})
