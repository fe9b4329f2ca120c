import { HttpApiBuilder } from "@effect/platform"
import { CurrentUser, SynthApi } from "@synth/contracts"
import { Effect } from "effect"
import { EvaluationService } from "../../evaluations/EvaluationService.ts"

export const EvaluationsLive = HttpApiBuilder.group(SynthApi, "evaluations", (handlers) =>
  Effect.gen(function* () {
    const evaluations = yield* EvaluationService
    return handlers
      .handle("quick", ({ path }) => Effect.flatMap(CurrentUser, (user) => evaluations.quick(path.generator_id, user.id)))
      .handle("run", ({ payload }) => Effect.flatMap(CurrentUser, (user) => evaluations.run(user.id, payload)))
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (user) => evaluations.get(path.evaluation_id, user.id)))
      .handle("report", ({ path }) => Effect.flatMap(CurrentUser, (user) => evaluations.report(path.evaluation_id, user.id)))
  })
)
