import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser, SynthApi } from "@synth/contracts"
import { Effect, Option } from "effect"
import { AuditService } from "../../audit/AuditService.ts"
import { linkedPage } from "../paging.ts"

export const EventsLive = HttpApiBuilder.group(SynthApi, "events", (handlers) =>
  Effect.gen(function* () {
    const audit = yield* AuditService
    return handlers.handle("list", ({ request, query }) =>
      Effect.flatMap(CurrentUser, (user) => audit.list(user, query, request.headers["accept"])).pipe(
        Effect.map((answer) =>
          answer._tag === "Export"
            ? answer.events
            : linkedPage(answer.items, Option.map(answer.next, (next) => ({ path: "/events", query: next })))
        )
      )
    )
  })
)
