import { BlobKey, BlobStore } from "@synth/blobstore"
import type { UserId } from "@synth/contracts"
import type { EvaluationResults, QuickEvaluation } from "@synth/evaluation"
import { Effect, Layer, Option, Schema, Stream } from "effect"
import { EvaluationRepository, type EvaluationRow } from "../evaluations/EvaluationRepository.ts"
import { GeneratorRepository } from "../generators/GeneratorRepository.ts"
import { ChatEvaluations, type ChatEvaluationState, type GeneratorContext } from "./ChatEvaluation.ts"

/** The parts evaluationFacts reads first: a blob without them is not an evaluation's results (a defect). */
const StoredQuick = Schema.Struct({ quality: Schema.Struct({ properties: Schema.Unknown }), diagnostic: Schema.Unknown, recommendationDetails: Schema.Array(Schema.Unknown) })
const StoredRun = Schema.Struct({ statistical: Schema.Unknown, diagnostic: Schema.Unknown, privacy: Schema.Unknown, summary: Schema.Unknown })

/** The stored value itself once it has those parts (decoding would keep only the parts checked). */
const checked = <A>(schema: Schema.Codec<unknown, unknown>, stored: unknown): A => {
  Schema.decodeUnknownSync(schema)(stored)
  return stored as A
}

/**
 * The owner's evaluations from the evaluations read model, their results from the blob store (JSON as the evaluation
 * service stored them) and the generator's type and ε from the generators read model.
 */
export const ChatEvaluationsLive = Layer.effect(
  ChatEvaluations,
  Effect.gen(function* () {
    const evaluations = yield* EvaluationRepository
    const generators = yield* GeneratorRepository
    const blobs = yield* BlobStore

    const generatorContext = (row: EvaluationRow, owner: UserId) =>
      Effect.map(generators.findVisible(row.generatorId, owner), Option.map((generator): GeneratorContext => ({
        type: generator.generatorType,
        differentiallyPrivate: generator.generatorType === "dp-ctgan",
        targetEpsilon: generator.parameters.target_epsilon
      })))

    const storedResults = (row: EvaluationRow) =>
      Option.match(Option.fromNullishOr(row.resultsBlobKey), {
        onNone: () => Effect.succeed(Option.none<unknown>()),
        onSome: (key) =>
          blobs.get(BlobKey.make(...key.split("/"))).pipe(
            Stream.decodeText(),
            Stream.mkString,
            Effect.map((text) => Option.some(JSON.parse(text) as unknown)),
            // Gone meanwhile (the evaluation's datasets were deleted): as absent as the evaluation.
            Effect.catchTags({ BlobNotFound: () => Effect.succeed(Option.none<unknown>()), BlobStoreError: Effect.die })
          )
      })

    const completed = (row: EvaluationRow, owner: UserId) =>
      Effect.gen(function* () {
        const stored = yield* storedResults(row)
        if (Option.isNone(stored)) return Option.none<ChatEvaluationState>()
        const generator = Option.getOrUndefined(yield* generatorContext(row, owner))
        const state: ChatEvaluationState = row.kind === "quick"
          ? { status: "completed", kind: "quick", results: checked<QuickEvaluation>(StoredQuick, stored.value), ...(generator === undefined ? {} : { generator }) }
          : { status: "completed", kind: "full", results: checked<EvaluationResults>(StoredRun, stored.value), ...(generator === undefined ? {} : { generator }) }
        return Option.some(state)
      })

    const load = (owner: UserId, evaluationId: string) =>
      Effect.flatMap(evaluations.findVisible(evaluationId, owner), (found) => {
        if (Option.isNone(found)) return Effect.succeed(Option.none<ChatEvaluationState>())
        const row = found.value
        switch (row.status) {
          case "running":
            return Effect.succeed(Option.some<ChatEvaluationState>({ status: "running" }))
          case "failed":
            return Effect.succeed(Option.some<ChatEvaluationState>({ status: "failed", reason: row.error?.message ?? null }))
          case "completed":
            return completed(row, owner)
        }
      })

    return { load }
  })
).pipe(Layer.provide([EvaluationRepository.layer, GeneratorRepository.layer]))
