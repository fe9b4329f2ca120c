import { describe, expect, layer } from "@effect/vitest"
import { Data, Effect, Fiber, type Layer, Queue, Stream } from "effect"
import { EventLog, EventLogError, type Position, type StoredEvent } from "../EventLog.ts"
import { payloadN, readAll, testEnvelope, uniqueTopic, waitUntilCommitted, withoutSeal } from "./fixtures.ts"

class HandlerFailed extends Data.TaggedError("HandlerFailed")<{ readonly offset: number }> {}

/** Long enough for a real broker, short enough that a lost wake-up fails the test instead of hanging it. */
const patience = "10 seconds"

const byOffset = (left: StoredEvent, right: StoredEvent) => left.offset - right.offset

const takeN = <A>(queue: Queue.Dequeue<A>, count: number) =>
  Queue.takeBetween(queue, count, count).pipe(
    Effect.timeoutOrElse({ duration: patience, orElse: () => Effect.fail(new Error(`fewer than ${count} events arrived`)) })
  )

/**
 * The behaviour every EventLog adapter promises. Adapters may have any number of partitions per topic, so the
 * suite only relies on order within the partition an aggregate's key maps to.
 */
export const eventLogContract = (name: string, makeLayer: () => Layer.Layer<EventLog, unknown>) =>
  layer(makeLayer(), { excludeTestServices: true, timeout: "60 seconds" })(`EventLog contract: ${name}`, (it) => {
    describe("append", () => {
      it.effect("returns one position per record, with consecutive offsets from the end offset", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("positions")
          const partitions = yield* log.partitions(topic)
          expect(partitions).toBeGreaterThanOrEqual(1)
          const before = yield* log.endOffsets(topic)
          expect(before.map((position) => position.offset)).toEqual(Array(partitions).fill(0))

          const keys = ["a", "b", "c", "a", "b", "d", "a"]
          const positions = yield* log.append([
            { topic, envelope: testEnvelope(keys[0]!, 0) },
            ...keys.slice(1).map((key, index) => ({ topic, envelope: testEnvelope(key, index + 1) }))
          ])

          expect(positions).toHaveLength(keys.length)
          for (const partition of before.map((position) => position.partition)) {
            const offsets = positions.filter((position) => position.partition === partition).map((p) => p.offset)
            expect(offsets).toEqual(offsets.map((_, index) => index))
          }
          for (const position of positions) {
            expect(position.topic).toBe(topic)
            expect(position.partition).toBeGreaterThanOrEqual(0)
            expect(position.partition).toBeLessThan(partitions)
          }
          const after = yield* log.endOffsets(topic)
          expect(after.map((end) => end.offset)).toEqual(
            before.map((start) => positions.filter((position) => position.partition === start.partition).length)
          )
        }))

      it.effect("is idempotent by eventId: a stored event keeps its position and nothing is appended", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("idempotent")
          const first = testEnvelope("agg", 1)
          const second = testEnvelope("agg", 2)
          const [original] = yield* log.append([{ topic, envelope: first }])
          const afterFirst = yield* log.endOffsets(topic)

          const again = yield* log.append([{ topic, envelope: first }])
          expect(again).toEqual([original])
          expect(yield* log.endOffsets(topic)).toEqual(afterFirst)

          const mixed = yield* log.append([{ topic, envelope: first }, { topic, envelope: second }, {
            topic,
            envelope: second
          }])
          expect(mixed[0]).toEqual(original)
          expect(mixed[2]).toEqual(mixed[1])
          expect(mixed[1]!.offset).toBe(original!.offset + 1)
          expect((yield* readAll(topic)).map((event) => event.envelope.eventId)).toEqual([
            first.eventId,
            second.eventId
          ])
        }))

      it.effect("gives back every envelope exactly as appended, whatever JSON its payload holds", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("round-trip")
          const envelope = {
            ...testEnvelope("agg", 0),
            causationId: crypto.randomUUID(),
            payload: {
              text: "quote \" backslash \\ nul \u0000 newline \n emoji 😀 accents é",
              nested: { list: [1, 2.5, -3e-7, null, true, "NULL"], empty: {} },
              large: "x".repeat(100_000)
            }
          }
          const [position] = yield* log.append([{ topic, envelope }])
          const [stored] = yield* readAll(topic)
          expect(withoutSeal(stored?.envelope)).toEqual(envelope)
          expect(stored).toMatchObject({ ...position, key: "agg" })
          expect(stored?.appendedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
        }))

      it.effect("rejects an envelope it could not give back, and stores nothing of that call", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("invalid")
          const notAnEnvelope = { ...testEnvelope("agg", 2), actor: "nobody in particular" }
          const notJson = { ...testEnvelope("agg", 3), payload: { size: 10n } }
          for (const invalid of [notAnEnvelope, notJson]) {
            const error = yield* log.append([{ topic, envelope: testEnvelope("agg", 1) }, { topic, envelope: invalid }])
              .pipe(Effect.flip)
            expect(error).toBeInstanceOf(EventLogError)
          }
          expect(yield* readAll(topic)).toEqual([])
        }))

      it.effect("keeps concurrent appends from many fibers: nothing lost, offsets gapless per partition", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("concurrent")
          const fibers = 20
          const callsPerFiber = 5
          const positions = yield* Effect.forEach(
            Array.from({ length: fibers }, (_, fiber) => fiber),
            (fiber) =>
              Effect.forEach(
                Array.from({ length: callsPerFiber }, (_, call) => call),
                (call) => {
                  const n = fiber * 100 + call * 2
                  return log.append([
                    { topic, envelope: testEnvelope(`agg-${fiber}`, n) },
                    { topic, envelope: testEnvelope(`agg-${fiber}`, n + 1) }
                  ])
                }
              ),
            { concurrency: "unbounded" }
          ).pipe(Effect.map((perFiber) => perFiber.flat(2)))

          const stored = yield* readAll(topic)
          expect(stored).toHaveLength(fibers * callsPerFiber * 2)
          const partitions = yield* log.partitions(topic)
          for (let partition = 0; partition < partitions; partition++) {
            const offsets = stored.filter((event) => event.partition === partition).map((event) => event.offset)
            expect(offsets).toEqual(offsets.map((_, index) => index))
          }
          const storedPositions = stored.map(({ offset, partition, topic }): Position => ({ topic, partition, offset }))
          expect(new Set(positions.map((p) => JSON.stringify(p)))).toEqual(
            new Set(storedPositions.map((p) => JSON.stringify(p)))
          )
          for (let fiber = 0; fiber < fibers; fiber++) {
            const ofAggregate = stored.filter((event) => event.key === `agg-${fiber}`)
            expect(ofAggregate.map(payloadN)).toEqual(ofAggregate.map((_, index) => fiber * 100 + index))
          }
        }))
    })

    describe("read", () => {
      it.effect("keeps each aggregate's events in append order, all in the partition its key maps to", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("order")
          const keys = ["k1", "k2", "k3", "k4", "k5"]
          for (let round = 0; round < 4; round++) {
            yield* log.append([
              { topic, envelope: testEnvelope(keys[round % keys.length]!, round * 10) },
              ...keys.map((key) => ({ topic, envelope: testEnvelope(key, round * 10 + 1) }))
            ])
          }
          const stored = yield* readAll(topic)
          for (const key of keys) {
            const ofKey = stored.filter((event) => event.key === key)
            expect(new Set(ofKey.map((event) => event.partition)).size).toBe(1)
            expect(ofKey.map(payloadN)).toEqual([...ofKey.map(payloadN)].sort((a, b) => a - b))
            expect(ofKey.every((event) => event.envelope.aggregateId === key)).toBe(true)
          }
        }))

      it.effect("reads one partition from a given offset", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("from-offset")
          const positions = yield* log.append([
            { topic, envelope: testEnvelope("agg", 0) },
            ...Array.from({ length: 9 }, (_, index) => ({ topic, envelope: testEnvelope("agg", index + 1) }))
          ])
          const start = positions[4]!
          const events = yield* log.read({ ...start, fromOffset: start.offset, follow: false }).pipe(
            Stream.runCollect
          )
          expect(events.map(payloadN)).toEqual([4, 5, 6, 7, 8, 9])
          expect(events.map((event) => event.offset)).toEqual(positions.slice(4).map((position) => position.offset))
        }))

      it.effect("without follow ends at the end offset it saw when it started", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("no-follow")
          const [first] = yield* log.append([
            { topic, envelope: testEnvelope("agg", 0) },
            { topic, envelope: testEnvelope("agg", 1) },
            { topic, envelope: testEnvelope("agg", 2) }
          ])
          const appendedMeanwhile = log.append([
            { topic, envelope: testEnvelope("agg", 3) },
            { topic, envelope: testEnvelope("agg", 4) }
          ])
          const events = yield* log.read({ ...first!, fromOffset: 0, follow: false }).pipe(
            Stream.tap((event) => (payloadN(event) === 0 ? appendedMeanwhile : Effect.void)),
            Stream.runCollect
          )
          expect(events.map(payloadN)).toEqual([0, 1, 2])
          expect((yield* readAll(topic)).map(payloadN)).toEqual([0, 1, 2, 3, 4])
        }))

      it.effect("with follow delivers events appended later, promptly", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("follow")
          const [before] = yield* log.append([{ topic, envelope: testEnvelope("agg", 0) }])
          const follower = yield* log.read({ ...before!, fromOffset: before!.offset, follow: true }).pipe(
            Stream.take(4),
            Stream.runCollect,
            Effect.timeoutOrElse({ duration: patience, orElse: () => Effect.fail(new Error("the follower missed an append")) }),
            Effect.forkChild
          )
          yield* log.append([{ topic, envelope: testEnvelope("agg", 1) }])
          yield* Effect.sleep("100 millis")
          yield* log.append([{ topic, envelope: testEnvelope("agg", 2) }, { topic, envelope: testEnvelope("agg", 3) }])
          const events = yield* Fiber.join(follower)
          expect(events.map(payloadN)).toEqual([0, 1, 2, 3])
        }))

      it.effect("fails for a partition the topic does not have", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("no-partition")
          yield* log.append([{ topic, envelope: testEnvelope("agg", 0) }])
          const partitions = yield* log.partitions(topic)
          const error = yield* log.read({ topic, partition: partitions, fromOffset: 0, follow: false }).pipe(
            Stream.runCollect,
            Effect.flip
          )
          expect(error).toBeInstanceOf(EventLogError)
        }))

      it.effect("replays a topic from the start: everything, in order", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("replay")
          const appended = []
          for (let call = 0; call < 6; call++) {
            const envelopes = Array.from({ length: 7 }, (_, index) => testEnvelope(`agg-${index % 3}`, call * 7 + index))
            appended.push(...envelopes)
            yield* log.append([
              { topic, envelope: envelopes[0]! },
              ...envelopes.slice(1).map((envelope) => ({ topic, envelope }))
            ])
          }
          const replayed = yield* readAll(topic)
          expect(replayed).toHaveLength(appended.length)
          expect(new Set(replayed.map((event) => event.envelope.eventId))).toEqual(
            new Set(appended.map((envelope) => envelope.eventId))
          )
          expect(replayed.map((event) => event.envelope)).toEqual(
            expect.arrayContaining(appended.map((envelope) => expect.objectContaining(envelope)))
          )
          const partitions = yield* log.partitions(topic)
          for (let partition = 0; partition < partitions; partition++) {
            const inPartition = replayed.filter((event) => event.partition === partition)
            expect(inPartition.map((event) => event.offset)).toEqual(inPartition.map((_, index) => index))
            expect([...inPartition].sort((a, b) => payloadN(a) - payloadN(b))).toEqual(inPartition)
          }
          expect(replayed.every((event) => !Number.isNaN(Date.parse(event.appendedAt)))).toBe(true)
        }))
    })

    describe("consume", () => {
      it.effect("hands every event to the handler once, in order per partition, then commits the cursor", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("consume")
          const group = uniqueTopic("group")
          expect((yield* log.committedOffsets(group, topic)).every((position) => position.offset === 0)).toBe(true)
          yield* log.append([
            { topic, envelope: testEnvelope("a", 0) },
            { topic, envelope: testEnvelope("b", 1) },
            { topic, envelope: testEnvelope("a", 2) }
          ])
          const seen = yield* Queue.unbounded<StoredEvent>()
          const member = yield* log.consume({ group, topics: [topic], handle: (event) => Queue.offer(seen, event) })
            .pipe(Effect.forkChild)
          yield* log.append([{ topic, envelope: testEnvelope("b", 3) }, { topic, envelope: testEnvelope("c", 4) }])
          const handled = yield* takeN(seen, 5)
          yield* waitUntilCommitted(group, topic, { every: "20 millis", within: patience })
          yield* Fiber.interrupt(member)

          expect(handled.map(payloadN).sort()).toEqual([0, 1, 2, 3, 4])
          const partitions = yield* log.partitions(topic)
          for (let partition = 0; partition < partitions; partition++) {
            const inPartition = handled.filter((event) => event.partition === partition)
            expect(inPartition).toEqual([...inPartition].sort(byOffset))
          }
        }))

      it.effect("leaves the cursor on a failing event, so the next member of the group gets it again", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("redeliver")
          const group = uniqueTopic("group")
          const positions = yield* log.append([
            { topic, envelope: testEnvelope("agg", 0) },
            { topic, envelope: testEnvelope("agg", 1) },
            { topic, envelope: testEnvelope("agg", 2) }
          ])
          const failing = positions[1]!
          const seenByFirst = yield* Queue.unbounded<StoredEvent>()
          const error = yield* log.consume({
            group,
            topics: [topic],
            handle: (event) =>
              event.offset === failing.offset && event.partition === failing.partition
                ? Effect.fail(new HandlerFailed({ offset: event.offset }))
                : Queue.offer(seenByFirst, event)
          }).pipe(
            Effect.flip,
            Effect.timeoutOrElse({ duration: patience, orElse: () => Effect.fail(new Error("the failing member never stopped")) })
          )
          expect(error).toEqual(new HandlerFailed({ offset: failing.offset }))
          expect((yield* takeN(seenByFirst, 1)).map(payloadN)).toEqual([0])
          const committed = yield* log.committedOffsets(group, topic)
          expect(committed.find((position) => position.partition === failing.partition)?.offset).toBe(failing.offset)

          const seenBySecond = yield* Queue.unbounded<StoredEvent>()
          const second = yield* log.consume({ group, topics: [topic], handle: (event) => Queue.offer(seenBySecond, event) })
            .pipe(Effect.forkChild)
          expect((yield* takeN(seenBySecond, 2)).map(payloadN)).toEqual([1, 2])
          yield* waitUntilCommitted(group, topic, { every: "20 millis", within: patience })
          yield* Fiber.interrupt(second)
        }))

      it.effect("keeps one cursor per group: a second group reads everything independently", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("groups")
          const first = uniqueTopic("group-a")
          const second = uniqueTopic("group-b")
          yield* log.append([
            { topic, envelope: testEnvelope("x", 0) },
            { topic, envelope: testEnvelope("y", 1) },
            { topic, envelope: testEnvelope("z", 2) }
          ])
          const consumeAll = (group: string) =>
            Effect.gen(function*() {
              const seen = yield* Queue.unbounded<StoredEvent>()
              const member = yield* log.consume({ group, topics: [topic], handle: (event) => Queue.offer(seen, event) })
                .pipe(Effect.forkChild)
              const handled = yield* takeN(seen, 3)
              yield* waitUntilCommitted(group, topic, { every: "20 millis", within: patience })
              yield* Fiber.interrupt(member)
              return handled.map(payloadN).sort()
            })
          expect(yield* consumeAll(first)).toEqual([0, 1, 2])
          expect((yield* log.committedOffsets(second, topic)).every((position) => position.offset === 0)).toBe(true)
          expect(yield* consumeAll(second)).toEqual([0, 1, 2])
          expect(yield* log.committedOffsets(first, topic)).toEqual(yield* log.committedOffsets(second, topic))
        }))

      it.effect("shares partitions between members of a group: no event is handled twice", () =>
        Effect.gen(function*() {
          const log = yield* EventLog
          const topic = uniqueTopic("members")
          const group = uniqueTopic("group")
          // Appending first means both members find work the moment they start.
          yield* log.append([
            { topic, envelope: testEnvelope("p", 0) },
            ...Array.from({ length: 9 }, (_, index) => ({ topic, envelope: testEnvelope(`q-${index}`, index + 1) }))
          ])
          const seen = yield* Queue.unbounded<StoredEvent>()
          const member = log.consume({ group, topics: [topic], handle: (event) => Queue.offer(seen, event) })
          const members = yield* Effect.all([Effect.forkChild(member), Effect.forkChild(member)])
          const handled = yield* takeN(seen, 10)
          yield* waitUntilCommitted(group, topic, { every: "20 millis", within: patience })
          yield* Effect.sleep("100 millis")
          yield* Effect.forEach(members, Fiber.interrupt)
          expect(handled.map(payloadN).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
          expect(yield* Queue.size(seen)).toBe(0)
        }))
    })
  })
