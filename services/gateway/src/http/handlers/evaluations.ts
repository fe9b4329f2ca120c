import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { CurrentUser, SynthApi } from "@synth/contracts"
import { reportContentSecurityPolicy } from "@synth/evaluation/vocabulary"
import { Effect } from "effect"
import { EvaluationService } from "../../evaluations/EvaluationService.ts"
import { pendingAt } from "../pending.ts"

const evaluationPath = (evaluationId: string) => `/evaluations/${evaluationId}`

export const EvaluationsLive = HttpApiBuilder.group(SynthApi, "evaluations", (handlers) =>
  Effect.gen(function* () {
    const evaluations = yield* EvaluationService
    return handlers
      .handle("quick", ({ params }) =>
        Effect.flatMap(CurrentUser, (user) => evaluations.quick(params.generator_id, user.id)).pipe(
          Effect.map(pendingAt((pending) => evaluationPath(pending.evaluation_id)))
        )
      )
      .handle("run", ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) => evaluations.run(user.id, payload)).pipe(
          Effect.map((body) => HttpApiSchema.withHeaders({ body, headers: { location: evaluationPath(body.evaluation_id) } }))
        )
      )
      .handle("get", ({ params }) => Effect.flatMap(CurrentUser, (user) => evaluations.get(params.evaluation_id, user.id)))
      .handle("report", ({ params }) =>
        Effect.flatMap(CurrentUser, (user) => evaluations.report(params.evaluation_id, user.id)).pipe(
          // The page's own policy (nothing loads from elsewhere), never sniffed, opened in the browser under its id.
          Effect.map(({ evaluationId, html }) =>
            HttpApiSchema.withHeaders({
              body: html,
              headers: {
                "content-security-policy": reportContentSecurityPolicy,
                "x-content-type-options": "nosniff" as const,
                "content-disposition": `inline; filename="evaluation-${evaluationId}.html"`
              }
            })
          )
        )
      )
  })
)
