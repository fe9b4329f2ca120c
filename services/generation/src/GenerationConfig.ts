import { Config, Duration, Schema } from "effect"
import { availableParallelism, hostname } from "node:os"

/** The generation service's settings; every one has a default. */
export const GenerationConfig = Config.all({
  /** Jobs this process trains at once (each in its own worker thread): one per core by default. */
  concurrency: Config.schema(Schema.Int.check(Schema.makeFilter((jobs: number) => jobs >= 1, { message: "GENERATION_CONCURRENCY is at least 1" })), "GENERATION_CONCURRENCY").pipe(
    Config.withDefault(availableParallelism())
  ),
  /**
   * Threads a CTGAN or TVAE training may use: with 2 (the default on two cores or more) a training that starts while
   * a second core is free takes it too (data parallel; the core counts against GENERATION_CONCURRENCY until the
   * training ends). 1 keeps every training on one thread.
   */
  trainingThreads: Config.schema(Schema.Int.check(Schema.makeFilter((threads: number) => threads === 1 || threads === 2, { message: "GENERATION_TRAINING_THREADS is 1 or 2" })), "GENERATION_TRAINING_THREADS").pipe(
    Config.withDefault(availableParallelism() >= 2 ? 2 : 1)
  ),
  /** A running job appends a progress event at least this often: the heartbeat that shows its worker is alive. */
  heartbeat: Config.Duration("GENERATION_HEARTBEAT").pipe(Config.withDefault(Duration.seconds(2))),
  /**
   * A started job with no event for this long lost its worker (a crashed process): it is requeued or failed. Five
   * heartbeats: a lost worker is noticed within ~10 s, and a live one (its heartbeat comes from the main thread, not
   * the busy training thread) never misses five in a row.
   */
  stallTimeout: Config.Duration("GENERATION_STALL_TIMEOUT").pipe(Config.withDefault(Duration.seconds(10))),
  /** Attempts a job gets in all: a lost worker's job starts again until this many were lost, then it fails. */
  maxAttempts: Config.Int("GENERATION_MAX_ATTEMPTS").pipe(Config.withDefault(2)),
  /**
   * The secret dp-ctgan's noise is drawn with (with the generator's id): the noise must not be replayable from the
   * seed the record shows, or ε means nothing. Set, a dp-ctgan job is reproducible for a seed like the others; unset,
   * each job draws a fresh secret (docs/privacy.md).
   */
  noiseSecret: Config.option(Config.Redacted("GENERATION_NOISE_SECRET")),
  /** Names this process in `generator.started` (which worker ran which attempt). */
  instanceId: Config.String("GENERATION_INSTANCE_ID").pipe(Config.withDefault(`${hostname()}-${process.pid}`))
})
export type GenerationConfig = Config.Success<typeof GenerationConfig>
