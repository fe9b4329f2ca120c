import { ProduceAcks, type Producer } from "@platformatic/kafka"
import { Cause, Deferred, Duration, Effect, Exit, Option, Queue } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { v7 as uuidv7 } from "uuid"
import { EventLogError, type Position } from "../EventLog.ts"
import { type ChainHead, producerOf, sealEnvelope } from "../integrity/seal.ts"
import type { OutgoingRecord } from "./codec.ts"
import { kafkaFailure, type Topics } from "./topics.ts"

interface PendingAppend {
  readonly records: NonEmptyReadonlyArray<OutgoingRecord>
  readonly bytes: number
  readonly done: Deferred.Deferred<ReadonlyArray<Position>, EventLogError>
}

export interface AppenderSettings {
  /** How many recently appended event ids (with their positions) this process remembers to answer re-appends. */
  readonly dedupeWindow: number
  /** How long `append` waits for the broker's acknowledgement. */
  readonly appendTimeout: Duration.Duration
}

/** Calls coalesced into one produce request, and their bytes (well under the broker's 1 MiB per partition batch). */
const maxCallsPerRequest = 1_000
const maxBytesPerRequest = 512 * 1024

/** Positions of recently appended events, oldest first (a Map iterates in insertion order). */
const makeRecent = (capacity: number) => {
  const positions = new Map<string, Position>()
  return {
    get: (eventId: string) => positions.get(eventId),
    add: (eventId: string, position: Position) => {
      positions.set(eventId, position)
      if (positions.size > capacity) positions.delete(positions.keys().next().value!)
    }
  }
}

const failureOf = (cause: Cause.Cause<EventLogError>) =>
  Cause.hasInterruptsOnly(cause)
    ? new EventLogError({ reason: "The event log closed while appending (the events may or may not have been stored)" })
    : Option.getOrElse(
      Cause.findErrorOption(cause),
      () => new EventLogError({ reason: "Appending to Kafka failed", cause: Cause.squash(cause) })
    )

const partitionKey = (topic: string, partition: number) => `${partition}:${topic}`

/** What a seal adds to a record's JSON, at most (chain name, two hashes, the sequence). */
const sealBytes = 320

/**
 * Seals records as the next links of their producers' chains in this process: `<producer>/<instance>`, the instance
 * minted when the appender starts, because no process can know another's head (a restart opens a new chain).
 * Heads move before the request is sent: a request that fails leaves a gap, which verify reports as missing.
 */
const makeSealer = () => {
  const instance = uuidv7()
  const heads = new Map<string, ChainHead>()
  return (record: OutgoingRecord): string => {
    const chain = `${producerOf(record.type)}/${instance}`
    const sealed = sealEnvelope(record.encoded, chain, heads.get(chain))
    heads.set(chain, { sequence: sealed.integrity.sequence, hash: sealed.integrity.hash })
    return JSON.stringify(sealed)
  }
}

/**
 * Appends go through one sender fiber that coalesces whatever calls are waiting into one produce request. The
 * idempotent producer allows one request in flight per broker anyway, so concurrent appends would otherwise queue
 * for a round trip each; here they share one. The sender is also the one place that knows what was appended, which
 * makes the re-append check race-free within this process.
 */
export const makeAppender = (producer: Producer<string, string, string, string>, topics: Topics, settings: AppenderSettings) =>
  Effect.gen(function*() {
    const recent = makeRecent(settings.dedupeWindow)
    const seal = makeSealer()
    const closing = new EventLogError({ reason: "The event log closed before this append was sent" })
    const queue = yield* Effect.acquireRelease(
      Queue.unbounded<PendingAppend>(),
      (queue) =>
        // clear, not takeAll: v4's takeAll waits for at least one element
        Queue.clear(queue).pipe(
          Effect.flatMap(Effect.forEach((pending) => Deferred.fail(pending.done, closing), { discard: true })),
          Effect.andThen(Queue.shutdown(queue))
        )
    )

    /** One produce request for `calls`; every call is answered, with positions or with the request's failure. */
    const send = (calls: ReadonlyArray<PendingAppend>) =>
      Effect.gen(function*() {
        // Per call, per record: a position already known, or the index of the fresh record that will carry it.
        const fresh: Array<OutgoingRecord & { readonly indexInPartition: number }> = []
        const freshById = new Map<string, number>()
        const perPartition = new Map<string, number>()
        const plans = calls.map((call) =>
          call.records.map((record): Position | number => {
            const known = recent.get(record.eventId)
            if (known !== undefined) return known
            const planned = freshById.get(record.eventId)
            if (planned !== undefined) return planned
            const key = partitionKey(record.topic, record.partition)
            const indexInPartition = perPartition.get(key) ?? 0
            perPartition.set(key, indexInPartition + 1)
            freshById.set(record.eventId, fresh.length)
            fresh.push({ ...record, indexInPartition })
            return fresh.length - 1
          })
        )

        const values = fresh.map(seal)
        const acknowledged = fresh.length === 0 ? [] : yield* Effect.tryPromise({
          try: () =>
            producer.send({
              acks: ProduceAcks.ALL,
              messages: fresh.map(({ headers, key, partition, topic }, index) => ({
                topic: topics.physical(topic),
                partition,
                key,
                value: values[index]!,
                headers: { ...headers }
              }))
            }).then((result) => result.offsets ?? []),
          catch: kafkaFailure("append (the events may or may not have been stored)")
        })

        // The producer sends each partition's records, in the order given, as one batch: offsets count up from its base.
        const baseOffsets = new Map(
          acknowledged.map((entry) => [partitionKey(topics.logical(entry.topic), entry.partition), Number(entry.offset)])
        )
        const freshPositions = yield* Effect.forEach(fresh, (record) => {
          const base = baseOffsets.get(partitionKey(record.topic, record.partition))
          return base === undefined || Number.isNaN(base)
            ? Effect.fail(new EventLogError({ reason: `Kafka acknowledged no offset for ${record.topic}/${record.partition}` }))
            : Effect.succeed<Position>({ topic: record.topic, partition: record.partition, offset: base + record.indexInPartition })
        })
        fresh.forEach((record, index) => recent.add(record.eventId, freshPositions[index]!))
        yield* Effect.forEach(calls, (call, index) =>
          Deferred.succeed(
            call.done,
            plans[index]!.map((plan) => (typeof plan === "number" ? freshPositions[plan]! : plan))
          ), { discard: true })
      }).pipe(
        Effect.onExit((exit) =>
          Exit.isSuccess(exit)
            ? Effect.void
            : Effect.forEach(calls, (call) => Deferred.fail(call.done, failureOf(exit.cause)), { discard: true })
        ),
        Effect.ignore
      )

    /** Splits what is waiting into requests that stay under the size limit; a call is never split. */
    const requests = (calls: ReadonlyArray<PendingAppend>) => {
      const groups: Array<Array<PendingAppend>> = []
      let bytes = Infinity
      for (const call of calls) {
        if (bytes + call.bytes > maxBytesPerRequest) {
          groups.push([])
          bytes = 0
        }
        groups.at(-1)!.push(call)
        bytes += call.bytes
      }
      return groups
    }

    yield* Queue.take(queue).pipe(
      Effect.flatMap((first) =>
        Effect.map(Queue.takeBetween(queue, 0, maxCallsPerRequest - 1), (more) => [first, ...more])
      ),
      Effect.flatMap((calls) => Effect.forEach(requests(calls), send, { discard: true })),
      Effect.forever,
      Effect.forkScoped
    )

    return (records: NonEmptyReadonlyArray<OutgoingRecord>): Effect.Effect<ReadonlyArray<Position>, EventLogError> =>
      Effect.gen(function*() {
        const done = yield* Deferred.make<ReadonlyArray<Position>, EventLogError>()
        const bytes = records.reduce(
          (total, record) => total + Buffer.byteLength(record.key) + Buffer.byteLength(record.value) + sealBytes + 64,
          0
        )
        yield* Queue.offer(queue, { records, bytes, done })
        return yield* Deferred.await(done).pipe(
          Effect.timeoutOrElse({
            duration: settings.appendTimeout,
            orElse: () =>
              Effect.fail(
                new EventLogError({
                  reason: `Kafka did not acknowledge the append within ${Duration.format(settings.appendTimeout)} ` +
                    "(it may still be stored; appending the same events again from this process is safe)"
                })
              )
          })
        )
      })
  })
