// A generator topic in memory for the generation service's unit tests: the monitor over it, events to append as the
// gateway and the workers would, and what the log holds afterwards. No Kafka, no worker threads.
import { DatasetId, type DomainEvent, GeneratorId, Topics, userActor, UserId } from "@synth/contracts"
import { EventLog, EventWriter, layerMemory, type StoredEvent } from "@synth/eventlog"
import { generatorEvents } from "@synth/jobs/testing"
import { ConfigProvider, type Duration, Effect, Layer, Stream } from "effect"
import { JobMonitor } from "../JobMonitor.ts"
import { LocalJobs } from "../LocalJobs.ts"

export const generatorId = GeneratorId.make("0192f0c0-0000-7000-8000-0000000000a1")
export const ownerId = UserId.make("0192f0c0-0000-7000-8000-0000000000b1")
export const outputDatasetId = DatasetId.make("0192f0c0-0000-7000-8000-0000000000c1")
export const sampleDatasetId = DatasetId.make("0192f0c0-0000-7000-8000-0000000000c2")

const events = generatorEvents(
  { generatorId, ownerId, datasetId: DatasetId.make("0192f0c0-0000-7000-8000-0000000000d1"), outputDatasetId },
  { generatorType: "gaussian_copula", parameters: { numRows: 100, epochs: null, batchSize: null, targetEpsilon: null } }
)

export const { cancelRequested, requested, started } = events
export const request = events.requested.payload
export const completed = events.completed(1)
export const sampleRequested = events.sampleRequested(sampleDatasetId)

/** The generation settings of a test: short heartbeats and stall timeout, so the watchdog decides within a second. */
export const testConfig = (settings: Readonly<Record<string, string>> = {}) =>
  ConfigProvider.layer(ConfigProvider.fromUnknown({
    GENERATION_CONCURRENCY: "1",
    GENERATION_HEARTBEAT: "50 millis",
    GENERATION_STALL_TIMEOUT: "300 millis",
    GENERATION_MAX_ATTEMPTS: "2",
    GENERATION_INSTANCE_ID: "here-1",
    ...settings
  }))

/**
 * An in-memory log whose appends answer only `ackDelay` after the event is readable, as Kafka's may: a follower can
 * fold an event before the append that wrote it returns.
 */
const slowAckLog = (ackDelay: Duration.Input) =>
  Layer.effect(
    EventLog,
    Effect.gen(function* () {
      const log = yield* EventLog
      return {
        ...log,
        append: (...args: Parameters<typeof log.append>) => Effect.tap(log.append(...args), () => Effect.sleep(ackDelay))
      }
    })
  ).pipe(Layer.provide(layerMemory()))

/**
 * The monitor over an in-memory log, with the writer and the local jobs it shares with the runner. `ackDelay`: see
 * `slowAckLog`.
 */
export const monitorLayer = (settings?: Readonly<Record<string, string>>, ackDelay?: Duration.Input) =>
  JobMonitor.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(EventWriter.layer, LocalJobs.layer)),
    Layer.provideMerge(ackDelay === undefined ? layerMemory() : slowAckLog(ackDelay)),
    Layer.provideMerge(testConfig(settings))
  )

/** Appends as the owner's requests would, and answers where the event landed. */
export const append = (event: DomainEvent) =>
  Effect.gen(function* () {
    const writer = yield* EventWriter
    const log = yield* EventLog
    const [position] = yield* writer.append([event], {
      aggregateId: generatorId,
      actor: userActor(ownerId),
      correlationId: "test",
      causationId: null
    })
    const [stored] = yield* Stream.runCollect(log.read({ ...position!, fromOffset: position!.offset, follow: false }))
    return stored!
  })

/** Every event on the generator topic so far. */
export const logged: Effect.Effect<ReadonlyArray<StoredEvent>, never, EventLog> = Effect.flatMap(EventLog, (log) =>
  Stream.runCollect(log.read({ topic: Topics.generator.name, partition: 0, fromOffset: 0, follow: false })).pipe(Effect.orDie))

export const typesLogged = Effect.map(logged, (events) => events.map((event) => event.envelope.type))
