import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { CurrentUser, SynthApi } from "@synth/contracts"
import { Effect } from "effect"
import { GeneratorService } from "../../generators/GeneratorService.ts"
import { newestFirstPage } from "../paging.ts"

export const GeneratorsLive = HttpApiBuilder.group(SynthApi, "generators", (handlers) =>
  Effect.gen(function* () {
    const generators = yield* GeneratorService
    return handlers
      .handle("generate", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.generate(params.dataset_id, user.id, payload)).pipe(
          Effect.map((body) => HttpApiSchema.withHeaders({ body, headers: { location: `/generators/${body.generator_id}` } }))
        )
      )
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentUser, (user) => newestFirstPage("/generators/", query, (page) => generators.list(user.id, page)))
      )
      .handle("get", ({ params }) => Effect.flatMap(CurrentUser, (user) => generators.get(params.generator_id, user.id)))
      // The contract answers a record still running (the stop on its way) with 202, any other with 200.
      .handle("cancel", ({ params }) => Effect.flatMap(CurrentUser, (user) => generators.cancel(params.generator_id, user.id)))
      .handle("sample", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.sample(params.generator_id, user.id, payload)).pipe(
          Effect.map((body) => HttpApiSchema.withHeaders({ body, headers: { location: `/datasets/${body.output_dataset_id}` } }))
        )
      )
      .handle("validateDpConfig", ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.validateDpConfig(user.id, payload))
      )
  })
)
