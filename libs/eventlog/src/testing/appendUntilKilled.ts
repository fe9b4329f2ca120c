/**
 * Child process of the durability test: appends to the embedded log in `argv[2]`, over the topics named by the
 * other arguments, until it is killed. It writes each eventId to stdout only after its append returned; stdout is a
 * pipe, which Node writes synchronously on Linux, so every printed id was acknowledged before the next append began.
 */
import { Effect } from "effect"
import { layerEmbedded } from "../embedded.ts"
import { EventLog } from "../EventLog.ts"
import { testEnvelope } from "./fixtures.ts"

const [dataDir, ...topics] = process.argv.slice(2)
if (dataDir === undefined || topics.length === 0) throw new Error("usage: appendUntilKilled.ts <dataDir> <topic>...")

const appendForever = Effect.gen(function*() {
  const log = yield* EventLog
  for (let n = 0;; n++) {
    // Batches as well as single events, so a kill can land inside a multi-record transaction.
    const size = n % 3 === 0 ? 5 : 1
    const records = Array.from({ length: size }, (_, index) => ({
      topic: topics[(n + index) % topics.length]!,
      envelope: testEnvelope(`aggregate-${n % 7}`, n)
    }))
    yield* log.append([records[0]!, ...records.slice(1)])
    process.stdout.write(records.map((record) => `${record.envelope.eventId}\n`).join(""))
  }
})

Effect.runFork(appendForever.pipe(Effect.provide(layerEmbedded({ dataDir }))))
