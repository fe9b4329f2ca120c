import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { NotCompleted, NotFound, ValidationFailed, ServiceUnavailable } from "../errors.ts"
import { Authentication } from "../security.ts"

/** The longest question POST /llm/chat accepts, in characters (after trimming). */
export const maxChatMessageLength = 2_000

export const ChatRequest = Schema.Struct({
  message: Schema.String.annotate({ description: `the question, 1 to ${maxChatMessageLength} characters` }),
  evaluation_id: Schema.String.annotate({ description: "one of your evaluations (quick or run), completed" })
}).annotate({ identifier: "ChatRequest" })
export type ChatRequest = typeof ChatRequest.Type

export const ChatReply = Schema.Struct({
  reply: Schema.String,
  evaluation_id: Schema.String,
  source: Schema.Literals(["model", "offline"]).annotate({
    description: "model: the configured OpenAI-compatible model wrote the reply; offline: the built-in explainer did"
  }),
  model: Schema.NullOr(Schema.String).annotate({ description: "the model that wrote the reply; null when offline" }),
  cited_figures: Schema.Array(Schema.String).annotate({
    description: "names of the evaluation's figures the reply cites (e.g. overall_score, weakest_column.1, privacy.mia_auc)"
  }),
  suggested_questions: Schema.Array(Schema.String),
  fallback_reason: Schema.NullOr(Schema.String).annotate({
    description: "why the configured model did not answer (timeout, provider error, unusable reply); null otherwise"
  })
}).annotate({ identifier: "ChatReply" })
export type ChatReply = typeof ChatReply.Type

export class ChatGroup extends HttpApiGroup.make("chat")
  .add(
    HttpApiEndpoint.post("chat", "/llm/chat", {
      payload: ChatRequest,
      success: ChatReply,
      error: [NotFound, NotCompleted, ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Ask about one of your evaluations (weakest columns, is it safe to share, what to change next)")
      .annotate(
        OpenApi.Description,
        `Answers from the evaluation's figures only (aggregate figures and column names; never rows). With an
OpenAI-compatible model configured (OPENAI_API_KEY) the model writes the reply from those figures and cites them by
name; without one, or when the model fails or times out (LLM_CHAT_TIMEOUT), the built-in explainer answers
(\`source: "offline"\`, \`fallback_reason\` says why the model did not). 422 validation_failed for an empty message
or one over ${maxChatMessageLength} characters; 404 not_found for an unknown evaluation or another user's; 409 not_completed while
the evaluation runs or when it failed.`
      )
  )
  .middleware(Authentication) {}
