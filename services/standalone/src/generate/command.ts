import { Args, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientError, HttpClientRequest } from "@effect/platform"
import { type GenerationRequest, GeneratorType, SynthApi } from "@synth/contracts"
import { Console, Effect, Either, Option, Schedule } from "effect"
import { baseUrlOf, connectionOptions } from "../client/options.ts"
import { accessToken, type CredentialOptions } from "../upload/credentials.ts"
import { GenerationFailed } from "./errors.ts"
import { followGenerator } from "./follow.ts"
import { outcomeOf } from "./outcome.ts"
import { explainFailure } from "./refusal.ts"
import { type ConditionValue, conditionsOf, parseCondition, parseConstraint, type RequestedConstraint } from "./rules.ts"

/** A value the option's own parser refuses is a usage error (exit 2), said in its words. */
const parsedWith = <A>(parse: (text: string) => Either.Either<A, string>) => (texts: ReadonlyArray<string>) =>
  Effect.forEach(texts, (text) =>
    Either.match(parse(text), {
      onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message))),
      onRight: Effect.succeed
    }))

const options = {
  dataset: Args.text({ name: "DATASET" }).pipe(Args.withDescription("The id of the dataset to train on")),
  type: Options.choice("type", GeneratorType.literals).pipe(
    Options.withDescription("The generator to train; the server refuses, naming those it can, a type it cannot train yet")
  ),
  rows: Options.integer("rows").pipe(
    Options.withDescription("Synthetic rows to produce, 1 to the server's MAX_GENERATED_ROWS (10,000,000 by default)")
  ),
  epochs: Options.integer("epochs").pipe(
    Options.optional,
    Options.withDescription("Training epochs of ctgan, dp-ctgan and tvae (server default 300)")
  ),
  batchSize: Options.integer("batch-size").pipe(
    Options.optional,
    Options.withDescription("Rows per training step of ctgan, dp-ctgan and tvae (server default 500)")
  ),
  epsilon: Options.float("epsilon").pipe(
    Options.optional,
    Options.withDescription("dp-ctgan's privacy budget, required there: about 1 is high privacy, 5 balanced, 10 high utility")
  ),
  seed: Options.integer("seed").pipe(
    Options.optional,
    Options.withDescription("Makes the rows reproducible on the same server (chosen at random when absent)")
  ),
  constraints: Options.text("constraint").pipe(
    Options.repeated,
    Options.mapEffect(parsedWith(parseConstraint)),
    Options.withDescription(
      "A rule every output row obeys (repeatable): JSON as the API takes it, e.g. " +
        "'{\"type\":\"inequality\",\"low\":\"ordered_at\",\"high\":\"shipped_at\"}', or a short form: " +
        "LOW<=HIGH, LOW<HIGH, COLUMN=MIN..MAX (range), positive:COLUMN, unique:COLUMN[,COLUMN], fixed:COLUMN,COLUMN"
    )
  ),
  conditions: Options.text("condition").pipe(
    Options.repeated,
    Options.mapEffect(parsedWith(parseCondition)),
    Options.withDescription(
      "What every output row meets (repeatable): COLUMN=VALUE or COLUMN=MIN..MAX (either end may be left out); " +
        "numbers are sent as numbers, COLUMN='\"1\"' sends the text 1"
    )
  ),
  follow: Options.boolean("follow").pipe(
    Options.withDescription(
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
const unreachable = (error: unknown) => HttpClientError.isHttpClientError(error) && error._tag === "RequestError"
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
    const started = yield* explained(
      client.generators.generate({ path: { dataset_id: input.dataset }, payload: requestOf(input) })
    )
    yield* Console.log(`Generator ${started.generator_id}: ${started.status}, estimated time ${started.estimated_time}.`)
    yield* Console.error(started.message)
    if (!input.follow) return

    const readRecord = client.generators.get({ path: { generator_id: started.generator_id } }).pipe(
      Effect.retry(outlastingOutages),
      explained
    )
    const ended = yield* followGenerator(started.generator_id, readRecord)
    yield* Either.match(outcomeOf(ended), {
      onRight: Console.log,
      onLeft: (message) => new GenerationFailed({ message })
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
