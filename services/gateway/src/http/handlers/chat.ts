import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser, SynthApi } from "@synth/contracts"
import { Effect } from "effect"
import { ChatService } from "../../chat/ChatService.ts"

export const ChatLive = HttpApiBuilder.group(SynthApi, "chat", (handlers) =>
  Effect.gen(function* () {
    const chat = yield* ChatService
    return handlers.handle("chat", ({ payload }) =>
      Effect.flatMap(CurrentUser, (user) => chat.chat(user.id, payload.evaluation_id, payload.message))
    )
  })
)
