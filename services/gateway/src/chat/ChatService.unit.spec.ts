import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import { UserId } from "@synth/contracts"
import { Cause, ConfigProvider, Duration, Effect, Exit, Layer, Option, Redacted } from "effect"
import { ChatEvaluations, type ChatEvaluationState } from "./ChatEvaluation.ts"
import { ChatModel } from "./ChatModel.ts"
import { ChatModelLive } from "./chatModelLive.ts"
import { ChatService } from "./ChatService.ts"
import { makeOpenAiChatModel } from "./openAiChatModel.ts"
import { fixtureEvaluations, fixtureRows } from "./testing/evaluationFixtures.ts"
import { type OpenAiTestServer, startOpenAiTestServer } from "./testing/openAiTestServer.ts"

const owner = UserId.make("0190f5a6-0000-7000-8000-000000000001")
const stranger = UserId.make("0190f5a6-0000-7000-8000-000000000002")
const fullId = "0190f5a6-0000-7000-8000-00000000000a"
const quickId = "0190f5a6-0000-7000-8000-00000000000b"
const runningId = "0190f5a6-0000-7000-8000-00000000000c"
const failedId = "0190f5a6-0000-7000-8000-00000000000d"
const disclosingId = "0190f5a6-0000-7000-8000-00000000000e"
const safeId = "0190f5a6-0000-7000-8000-00000000000f"

let server: OpenAiTestServer
let evaluations: Map<string, ChatEvaluationState>

beforeAll(async () => {
  const results = await fixtureEvaluations()
  evaluations = new Map<string, ChatEvaluationState>([
    [fullId, { status: "completed", kind: "full", results: results.full, generator: { type: "ctgan", differentiallyPrivate: false, targetEpsilon: null } }],
    [quickId, { status: "completed", kind: "quick", results: results.quick }],
    [disclosingId, { status: "completed", kind: "full", results: results.disclosing }],
    [safeId, { status: "completed", kind: "full", results: results.safe }],
    [runningId, { status: "running" }],
    [failedId, { status: "failed", reason: "training_failed" }]
  ])
  server = await startOpenAiTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
  server.behaviour = { kind: "reply", content: "The weakest column is age (KSComplement 0.92) [weakest_column.1], see also [privacy.mia_auc, unknown.name]." }
})

/** The owner's evaluations only: someone else's id is as unknown as a made-up one. */
const EvaluationsTest = Layer.sync(ChatEvaluations, () => ({
  load: (user: UserId, id: string) => Effect.succeed(user === owner ? Option.fromNullishOr(evaluations.get(id)) : Option.none())
}))

const offline = Layer.succeed(ChatModel, Option.none())
const provider = (timeout = Duration.seconds(2)) =>
  Layer.effect(
    ChatModel,
    Effect.map(
      makeOpenAiChatModel({ apiKey: Redacted.make("test-key"), baseUrl: server.baseUrl, model: "test-model", timeout }),
      Option.some
    )
  ).pipe(Layer.provide(FetchHttpClient.layer))

const chat = (model: Layer.Layer<ChatModel>, user: UserId, id: string, message: string) =>
  Effect.runPromiseExit(
    Effect.flatMap(ChatService, (service) => service.chat(user, id, message)).pipe(
      Effect.provide(ChatService.layerWithoutDependencies.pipe(Layer.provide(Layer.merge(EvaluationsTest, model))))
    )
  )

const succeeded = async (exit: Promise<Exit.Exit<unknown, unknown>>) => {
  const result = await exit
  if (Exit.isFailure(result)) throw new Error(`expected success, got ${JSON.stringify(result.cause)}`)
  return result.value as Awaited<ReturnType<ChatService["Service"]["chat"]> extends Effect.Effect<infer A, any, any> ? A : never>
}

const failure = async (exit: Promise<Exit.Exit<unknown, unknown>>) => {
  const result = await exit
  if (Exit.isSuccess(result)) throw new Error("expected a failure")
  const error = Option.getOrThrow(Cause.findErrorOption(result.cause)) as { _tag: string; status: number; detail: string; errors?: unknown }
  return error
}

describe("ChatService without a model", () => {
  it("answers offline, citing the figures", async () => {
    const reply = await succeeded(chat(offline, owner, fullId, "Which columns are the weakest?"))
    expect(reply).toMatchObject({ evaluation_id: fullId, source: "offline", model: null, fallback_reason: null })
    expect(reply.reply).toContain("The weakest columns by shape score are")
    expect(reply.cited_figures).toContain("weakest_column.1")
    expect(reply.suggested_questions).toContain("Is it safe to share?")
    expect(reply.suggested_questions).not.toContain("Which columns are the weakest?")
  })

  it("answers about a quick evaluation too", async () => {
    const reply = await succeeded(chat(offline, owner, quickId, "Is it safe to share?"))
    expect(reply.reply).toContain("measures no privacy risk")
  })

  it("refuses an empty or overlong message with 422 validation_failed", async () => {
    for (const message of ["", "   \n"]) {
      const error = await failure(chat(offline, owner, fullId, message))
      expect(error).toMatchObject({ _tag: "ValidationFailed", status: 422, errors: [{ field: "message" }] })
      expect(error.detail).toContain("empty")
    }
    const error = await failure(chat(offline, owner, fullId, "x".repeat(2_001)))
    expect(error).toMatchObject({ _tag: "ValidationFailed", status: 422 })
    expect(error.detail).toContain("at most 2000")
    await succeeded(chat(offline, owner, fullId, "x".repeat(2_000)))
  })

  it("answers 404 for someone else's evaluation and for an unknown one", async () => {
    expect(await failure(chat(offline, stranger, fullId, "How good is it?"))).toMatchObject({ _tag: "NotFound", status: 404 })
    expect(await failure(chat(offline, owner, "0190f5a6-0000-7000-8000-0000000000ff", "How good is it?"))).toMatchObject({ _tag: "NotFound", status: 404 })
  })

  it("answers 409 while the evaluation runs and when it failed", async () => {
    const running = await failure(chat(offline, owner, runningId, "How good is it?"))
    expect(running).toMatchObject({ _tag: "NotCompleted", status: 409 })
    expect(running.detail).toContain("still running")
    const failed = await failure(chat(offline, owner, failedId, "How good is it?"))
    expect(failed).toMatchObject({ _tag: "NotCompleted", status: 409 })
    expect(failed.detail).toContain("failed, so there are no results to talk about; start a new evaluation. Why it failed: training_failed")
  })
})

describe("ChatService with an OpenAI-compatible model", () => {
  it("sends the figures and the question, never a row, and returns the model's reply with its citations", async () => {
    const reply = await succeeded(chat(provider(), owner, fullId, "Which columns are the weakest?"))
    expect(reply).toMatchObject({ source: "model", model: "test-model", fallback_reason: null, evaluation_id: fullId })
    expect(reply.reply).toContain("[weakest_column.1]")
    expect(reply.cited_figures).toEqual(["weakest_column.1", "privacy.mia_auc"])

    expect(server.requests).toHaveLength(1)
    const request = server.requests[0]!
    expect(request).toMatchObject({ method: "POST", path: "/v1/chat/completions", authorization: "Bearer test-key" })
    const body = JSON.parse(request.body) as { model: string; messages: ReadonlyArray<{ role: string; content: string }> }
    expect(body.model).toBe("test-model")
    expect(body.messages.map(({ role }) => role)).toEqual(["system", "user"])
    expect(body.messages[0]!.content).toContain("Answer only from these figures")
    const user = JSON.parse(body.messages[1]!.content) as { figures: ReadonlyArray<{ name: string; value: unknown }>; question: string }
    expect(user.question).toBe("Which columns are the weakest?")
    const figures = new Map(user.figures.map(({ name, value }) => [name, value]))
    const results = evaluations.get(fullId) as Extract<ChatEvaluationState, { kind: "full" }>
    expect(figures.get("overall_score")).toBe(Math.round(results.results.summary.overallScore! * 1000) / 1000)
    expect(figures.get("privacy.exact_copy_rows")).toBe(results.results.privacy.exactCopies.rows)
    expect(figures.has("weakest_column.1")).toBe(true)
    for (const name of ["training", "synthetic", "holdout"]) {
      for (const row of fixtureRows(`privacy_${name}.csv`)) expect(request.body).not.toContain(row)
    }
    for (const city of ["Rotterdam", "Utrecht", "Amsterdam", "Eindhoven"]) expect(request.body).not.toContain(city)
  })

  const fallbacks: ReadonlyArray<readonly [string, OpenAiTestServer["behaviour"], string]> = [
    ["an HTTP 500", { kind: "status", status: 500 }, "HTTP 500"],
    ["an HTTP 401", { kind: "status", status: 401 }, "HTTP 401"],
    ["garbage instead of JSON", { kind: "garbage" }, "not JSON"],
    ["an empty reply", { kind: "reply", content: "  " }, "empty"],
    ["a null reply", { kind: "reply", content: null }, "empty"],
    ["no answer in time", { kind: "silent", forMillis: 5_000 }, "in time"]
  ]

  it.each(fallbacks)("answers offline after %s, saying why", async (_, behaviour, reason) => {
    server.behaviour = behaviour
    const reply = await succeeded(chat(provider(Duration.millis(300)), owner, fullId, "Is it safe to share?"))
    expect(reply).toMatchObject({ source: "offline", model: null, evaluation_id: fullId })
    expect(reply.fallback_reason).toContain(reason)
    expect(reply.reply).toContain("exact copies of a real row")
    expect(reply.cited_figures).toContain("privacy.exact_copy_share")
  })

  it("answers offline when the model calls the data safe while a privacy check fails", async () => {
    server.behaviour = { kind: "reply", content: "Yes, it is safe to share: no exact copies [privacy.exact_copy_share]." }
    const reply = await succeeded(chat(provider(), owner, disclosingId, "Is it safe to share?"))
    expect(reply).toMatchObject({ source: "offline", fallback_reason: "the model's reply called the data safe while the privacy checks do not" })
    expect(reply.reply).toMatch(/^No: it is not safe to share\. This check fails: identifier disclosure/)
    // The same words pass when the checks' verdict is "safe", and a reply that says "not safe" passes either way.
    expect(await succeeded(chat(provider(), owner, safeId, "Is it safe to share?"))).toMatchObject({ source: "model" })
    server.behaviour = { kind: "reply", content: "No, it is not safe to share [privacy.safe_to_share]: identifier disclosure fails [privacy.failing_checks]." }
    expect(await succeeded(chat(provider(), owner, disclosingId, "Is it safe to share?"))).toMatchObject({
      source: "model",
      cited_figures: ["privacy.safe_to_share", "privacy.failing_checks"]
    })
  })

  it("answers offline when the provider cannot be reached", async () => {
    const closed = await startOpenAiTestServer()
    await closed.close()
    const unreachable = Layer.effect(
      ChatModel,
      Effect.map(makeOpenAiChatModel({ apiKey: Redacted.make("k"), baseUrl: closed.baseUrl, model: "m", timeout: Duration.seconds(2) }), Option.some)
    ).pipe(Layer.provide(FetchHttpClient.layer))
    const reply = await succeeded(chat(unreachable, owner, fullId, "How good is it?"))
    expect(reply).toMatchObject({ source: "offline", fallback_reason: "the model's provider could not be reached" })
  })

  it("still validates and checks ownership before asking the model", async () => {
    await failure(chat(provider(), owner, fullId, ""))
    await failure(chat(provider(), stranger, fullId, "How good is it?"))
    expect(server.requests).toHaveLength(0)
  })
})

describe("ChatService's model from the settings", () => {
  const withSettings = (settings: ReadonlyArray<readonly [string, string]>, id: string, message: string) =>
    Effect.runPromise(
      Effect.flatMap(ChatService, (service) => service.chat(owner, id, message)).pipe(
        Effect.provide(ChatService.layerWithoutDependencies.pipe(Layer.provide([ChatModelLive, EvaluationsTest]))),
        Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: Object.fromEntries(settings) }))
      )
    )

  it("answers offline when OPENAI_API_KEY is unset or empty", async () => {
    expect((await withSettings([], fullId, "How good is it?")).source).toBe("offline")
    expect((await withSettings([["OPENAI_API_KEY", " "]], fullId, "How good is it?")).source).toBe("offline")
    expect(server.requests).toHaveLength(0)
  })

  it("asks the model OPENAI_BASE_URL and LLM_MODEL name when OPENAI_API_KEY is set", async () => {
    const reply = await withSettings(
      [["OPENAI_API_KEY", "local"], ["OPENAI_BASE_URL", server.baseUrl], ["LLM_MODEL", "local-model"], ["LLM_CHAT_TIMEOUT", "5 seconds"]],
      fullId,
      "How good is it?"
    )
    expect(reply).toMatchObject({ source: "model", model: "local-model" })
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ model: "local-model" })
    expect(server.requests[0]!.authorization).toBe("Bearer local")
  })
})
