import { ProblemDetails, UploadAccepted, UploadResult } from "@synth/contracts"
import { Effect, Option, Schema } from "effect"
import { UploadFailed } from "./errors.ts"
import type { ServerAnswer } from "./send.ts"

/** 201 `uploaded` or 202 `processing`. */
export const UploadAnswer = Schema.Union([UploadResult, UploadAccepted])
export type UploadAnswer = typeof UploadAnswer.Type

const decodeJson = <A, I>(schema: Schema.Codec<A, I>, body: string) =>
  Schema.decodeUnknownOption(Schema.fromJsonString(schema))(body)

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

/** The upload's result, or an UploadFailed carrying the problem's detail (lacking one, the status and body). */
export const interpretAnswer = (answer: ServerAnswer): Effect.Effect<UploadAnswer, UploadFailed> => {
  if (answer.status === 201 || answer.status === 202) {
    return Option.match(decodeJson(UploadAnswer, answer.body), {
      onSome: Effect.succeed,
      onNone: () =>
        new UploadFailed({
          status: answer.status,
          message: `the server accepted the file but its answer was not an upload result: ${oneLine(answer.body).slice(0, 200)}`
        })
    })
  }
  return Option.match(decodeJson(ProblemDetails, answer.body), {
    onSome: (problem) => new UploadFailed({ status: answer.status, code: problem.code, message: oneLine(problem.detail) }),
    onNone: () =>
      new UploadFailed({
        status: answer.status,
        message: `the server answered ${answer.status}${answer.body === "" ? "" : `: ${oneLine(answer.body).slice(0, 200)}`}`
      })
  })
}
