import { Argument, CliError, Command, Flag } from "effect/cli"
import { FetchHttpClient, HttpClient, HttpClientError, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { type GenerationRequest, GeneratorType, SynthApi } from "@synth/contracts"
import { Console, Effect, Option, Result, Schedule } from "effect"
import { baseUrlOf, connectionOptions } from "../client/options.ts"
import { accessToken, type CredentialOptions } from "../upload/credentials.ts"
import { GenerationFailed } from "./errors.ts"
import { followGenerator } from "./follow.ts"
import { outcomeOf } from "./outcome.ts"
import { explainFailure } from "./refusal.ts"
import { type ConditionValue, conditionsOf, parseCondition, parseConstraint, type RequestedConstraint } from "./rules.ts"

/** A value the flag's own parser refuses is a usage error (exit 2), said in its words. */
const parsedWith = <A>(parse: (text: string) => Result.Result<A, string>) => (text: string) =>
  Result.match(parse(text), {
    onFailure: (message) => Effect.fail(new CliError.ValidationError({ message })),
    onSuccess: Effect.succeed
  })

const options = {
  dataset: Argument.String("DATASET").pipe(Argument.withDescription("The id of the dataset to train on")),
  type: Flag.Literals("type", GeneratorType.literals).pipe(
    Flag.withDescription("The generator to train; the server refuses, naming those it can, a type it cannot train yet")
  ),
  rows: Flag.Int("rows").pipe(
    Flag.withDescription("Synthetic rows to produce, 1 to the server's MAX_GENERATED_ROWS (10,000,000 by default)")
  ),
  epochs: Flag.Int("epochs").pipe(
    Flag.optional,
    Flag.withDescription("Training epochs of ctgan, dp-ctgan and tvae (server default 300)")
  ),
  batchSize: Flag.Int("batch-size").pipe(
    Flag.optional,
    Flag.withDescription("Rows per training step of ctgan, dp-ctgan and tvae (server default 500)")
  ),
  epsilon: Flag.Finite("epsilon").pipe(
    Flag.optional,
    Flag.withDescription("dp-ctgan's privacy budget, required there: about 1 is high privacy, 5 balanced, 10 high utility")
  ),
  seed: Flag.Int("seed").pipe(
    Flag.optional,
    Flag.withDescription("Makes the rows reproducible on the same server (chosen at random when absent)")
  ),
  constraints: Flag.String("constraint").pipe(
    Flag.mapEffect(parsedWith(parseConstraint)),
    Flag.atLeast(0),
    Flag.withDescription(
      "A rule every output row obeys (repeatable): JSON as the API takes it, e.g. " +
        "'{\"type\":\"inequality\",\"low\":\"ordered_at\",\"high\":\"shipped_at\"}', or a short form: " +
        "LOW<=HIGH, LOW<HIGH, COLUMN=MIN..MAX (range), positive:COLUMN, unique:COLUMN[,COLUMN], fixed:COLUMN,COLUMN"
    )
  ),
  conditions: Flag.String("condition").pipe(
    Flag.mapEffect(parsedWith(parseCondition)),
    Flag.atLeast(0),
    Flag.withDescription(
      "What every output row meets (repeatable): COLUMN=VALUE or COLUMN=MIN..MAX (either end may be left out); " +
        "numbers are sent as numbers, COLUMN='\"1\"' sends the text 1"
    )
  ),
  follow: Flag.Boolean("follow").pipe(Flag.withDefault(false), 
    Flag.withDescription(
      "Wait for the job, with its progress on stderr, and print the output dataset; Ctrl-C stops following, not the job"
    )
  ),
  ...connectionOptions
}

interface GenerateInput extends CredentialOptions {
  readonly dataset: string
  readonly type: GeneratorType
  readonly rows: number
  readonly epochs: Option.Option<number>
  readonly batchSize: Option.Option<number>
  readonly epsilon: Option.Option<number>
  readonly seed: Option.Option<number>
  readonly constraints: ReadonlyArray<RequestedConstraint>
  readonly conditions: ReadonlyArray<readonly [string, ConditionValue]>
  readonly follow: boolean
  readonly url: string
}

const requestOf = (input: GenerateInput): GenerationRequest => ({
  generator_type: input.type,
  num_rows: input.rows,
  epochs: Option.getOrNull(input.epochs),
  batch_size: Option.getOrNull(input.batchSize),
  target_epsilon: Option.getOrNull(input.epsilon),
  seed: Option.getOrNull(input.seed),
  constraints: input.constraints.length === 0 ? null : input.constraints,
  conditions: conditionsOf(input.conditions)
})

/** A follower outlives a short outage (a restarting server): reads that could not reach it are tried again. */
const unreachable = (error: unknown) =>
  HttpClientError.isHttpClientError(error) &&
  (error.reason._tag === "TransportError" || error.reason._tag === "EncodeError" || error.reason._tag === "InvalidUrlError")
const outlastingOutages = { while: unreachable, schedule: Schedule.spaced("1 second"), times: 10 }

const generate = (input: GenerateInput) =>
  Effect.gen(function*() {
    const baseUrl = yield* baseUrlOf(input.url)
    const token = yield* accessToken(baseUrl, input)
    const client = yield* HttpApiClient.make(SynthApi, {
      baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
    })
    const explained = explainFailure(baseUrl)
    // The 202 carries the generator's Location beside the body; the body says all the command shows.
    const { body: started } = yield* explained(
      client.generators.generate({ params: { dataset_id: input.dataset }, payload: requestOf(input) })
    )
    yield* Console.log(`Generator ${started.generator_id}: ${started.status}, estimated time ${started.estimated_time}.`)
    yield* Console.error(started.message)
    if (!input.follow) return

    const readRecord = client.generators.get({ params: { generator_id: started.generator_id } }).pipe(
      Effect.retry(outlastingOutages),
      explained
    )
    const ended = yield* followGenerator(started.generator_id, readRecord)
    yield* Result.match(outcomeOf(ended), {
      onSuccess: Console.log,
      onFailure: (message) => new GenerationFailed({ message })
    })
  }).pipe(Effect.provide(FetchHttpClient.layer))

export const generateCommand = Command.make("generate", options, generate).pipe(
  Command.withDescription(
    "Train a generator on a dataset and produce synthetic rows; prints the generator's id, status and estimated time. " +
      "With --follow, waits for the job (a progress bar on a terminal, a line per stage otherwise) and prints the " +
      "output dataset's id: exit 0 when it completed, 1 when it failed or was cancelled. Ctrl-C while following stops " +
      "following only: the job keeps running on the server (POST /generators/{id}/cancel stops it)."
  )
)
