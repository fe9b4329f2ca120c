import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser, SynthApi } from "@synth/contracts"
import { Effect } from "effect"
import { EvaluationService } from "../../evaluations/EvaluationService.ts"

export const EvaluationsLive = HttpApiBuilder.group(SynthApi, "evaluations", (handlers) =>
  Effect.gen(function* () {
    const evaluations = yield* EvaluationService
    return handlers
      .handle("quick", ({ params }) => Effect.flatMap(CurrentUser, (user) => evaluations.quick(params.generator_id, user.id)))
      .handle("run", ({ payload }) => Effect.flatMap(CurrentUser, (user) => evaluations.run(user.id, payload)))
      .handle("get", ({ params }) => Effect.flatMap(CurrentUser, (user) => evaluations.get(params.evaluation_id, user.id)))
      .handle("report", ({ params }) => Effect.flatMap(CurrentUser, (user) => evaluations.report(params.evaluation_id, user.id)))
  })
)
