import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser, SynthApi } from "@synth/contracts"
import { Effect } from "effect"
import { AuditService } from "../../audit/AuditService.ts"

export const EventsLive = HttpApiBuilder.group(SynthApi, "events", (handlers) =>
  Effect.gen(function* () {
    const audit = yield* AuditService
    return handlers.handle("list", ({ request, query }) =>
      Effect.flatMap(CurrentUser, (user) => audit.list(user, query, request.headers["accept"]))
    )
  })
)
