import { type ChatReply, maxChatMessageLength, NotCompleted, NotFound, type UserId, ValidationFailed } from "@synth/contracts"
import { Context, Effect, Layer, Option } from "effect"
import { ChatEvaluations } from "./ChatEvaluation.ts"
import { ChatModel, ChatModelFailure } from "./ChatModel.ts"
import { ChatEvaluationsLive } from "./chatEvaluationsLive.ts"
import { ChatModelLive } from "./chatModelLive.ts"
import { chatMessages, citedFigures } from "./chatPrompt.ts"
import { evaluationFacts } from "./evaluationFacts.ts"
import { offlineAnswer } from "./offlineAnswer.ts"
import { reassures } from "./reassurance.ts"
import { classifyQuestion, suggestedQuestions } from "./questionClass.ts"

const invalidMessage = (message: string) =>
  new ValidationFailed({ detail: `The message is invalid: ${message}.`, errors: [{ field: "message", message }] })

const validQuestion = (message: string) => {
  const question = message.trim()
  if (question === "") return Effect.fail(invalidMessage("it is empty; ask a question about the evaluation"))
  if (question.length > maxChatMessageLength) {
    return Effect.fail(invalidMessage(`it has ${question.length} characters; ask in at most ${maxChatMessageLength}`))
  }
  return Effect.succeed(question)
}

/**
 * Answers questions about one of the owner's evaluations from its figures: the configured model when there is one
 * (given the figures, asked to cite them), else, or when the model fails, the offline explainer.
 */
export class ChatService extends Context.Service<ChatService>()("@synth/gateway/ChatService", {
  make: Effect.gen(function* () {
    const evaluations = yield* ChatEvaluations
    const model = yield* ChatModel

    const notFound = (id: string) =>
      new NotFound({ detail: `There is no evaluation ${JSON.stringify(id.slice(0, 64))} among yours. Check the evaluation_id.` })

    const chat = Effect.fn("ChatService.chat")(function* (owner: UserId, evaluationId: string, message: string) {
      const question = yield* validQuestion(message)
      const state = yield* Effect.flatMap(
        evaluations.load(owner, evaluationId),
        Option.match({ onNone: () => Effect.fail(notFound(evaluationId)), onSome: Effect.succeed })
      )
      if (state.status === "running") {
        return yield* new NotCompleted({ detail: `Evaluation ${evaluationId} is still running. Ask again once it has completed.` })
      }
      if (state.status === "failed") {
        return yield* new NotCompleted({
          detail: `Evaluation ${evaluationId} failed, so there are no results to talk about; start a new evaluation.` +
            (state.reason === null ? "" : ` Why it failed: ${state.reason}`)
        })
      }
      const facts = evaluationFacts(state)
      const questionClass = classifyQuestion(question)
      const offline = (fallbackReason: string | null): ChatReply => {
        const answer = offlineAnswer(facts, questionClass)
        return {
          reply: answer.reply,
          evaluation_id: evaluationId,
          source: "offline",
          model: null,
          cited_figures: answer.cited,
          suggested_questions: suggestedQuestions(questionClass),
          fallback_reason: fallbackReason
        }
      }
      if (Option.isNone(model)) return offline(null)
      // Only a verdict of the checks may call the output safe: a model that reassures otherwise is not passed on.
      const safeToShare = facts.some(({ name, value }) => name === "privacy.safe_to_share" && value === true)
      return yield* model.value.complete(chatMessages(facts, question)).pipe(
        Effect.filterOrFail(
          (reply) => safeToShare || !reassures(reply),
          () => new ChatModelFailure({ reason: "unsafe_reply", message: "the model's reply called the data safe while the privacy checks do not" })
        ),
        Effect.map((reply): ChatReply => ({
          reply,
          evaluation_id: evaluationId,
          source: "model",
          model: model.value.model,
          cited_figures: citedFigures(facts, reply),
          suggested_questions: suggestedQuestions(questionClass),
          fallback_reason: null
        })),
        Effect.catchTag("ChatModelFailure", (failure: ChatModelFailure) =>
          Effect.logWarning("chat model failed; answering offline").pipe(
            Effect.annotateLogs({ reason: failure.reason, failure: failure.message }),
            Effect.as(offline(failure.message))
          )
        )
      )
    })

    return { chat }
  })
}) {
  /** Without its model and evaluations: tests give their own. */
  static readonly layerWithoutDependencies = Layer.effect(this, this.make)
  static readonly layer = this.layerWithoutDependencies.pipe(Layer.provide([ChatModelLive, ChatEvaluationsLive]))
}
