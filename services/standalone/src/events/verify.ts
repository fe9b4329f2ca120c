import { Command, Flag } from "effect/cli"
import { EventLogEmbedded, EventLogIntegrity, EventLogKafka, kafkaOptionsConfig } from "@synth/eventlog"
import { Config, Console, Data, Effect, Option, Stream } from "effect"
import * as path from "node:path"

/** The log was read to its end and at least one chain (or record) failed; the report has been printed. */
class VerificationFailed extends Data.TaggedError("VerificationFailed")<{ readonly message: string }> {}

const options = {
  json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("Print the report as one JSON object"))
}

const where = (problem: EventLogIntegrity.Problem) =>
  `${problem.topic}/${problem.partition}@${problem.offset}${problem.eventId === null ? "" : ` event ${problem.eventId}`}${
    problem.sequence === null ? "" : ` (sequence ${problem.sequence})`
  }: ${problem.detail}`

/** Positions, ids, sequences and hashes only: never a payload value. */
const describe = (report: EventLogIntegrity.VerifyReport): string => {
  const lines = [
    `${report.records} events read, ${report.chains.length} chains, ${report.unsealed} unsealed (stored before sealing)`
  ]
  for (const chain of report.chains) {
    const head = chain.head === null ? "no head" : `head ${chain.head.sequence} ${chain.head.hash}`
    const verdict = chain.problem === null ? "ok" : `${chain.problem.kind.toUpperCase()} at ${where(chain.problem)}`
    lines.push(`${chain.chain}: ${chain.events} events, ${head}, ${verdict}`)
  }
  for (const problem of report.undecodable) lines.push(`ALTERED (no chain readable) at ${where(problem)}`)
  lines.push(report.ok ? "The event log verifies." : "The event log does NOT verify.")
  return lines.join("\n")
}

/** Kafka when KAFKA_BROKERS is set (as every other command), else the embedded log in DATA_DIR. */
const rawLog = Effect.gen(function*() {
  if (Option.isSome(yield* Config.option(Config.String("KAFKA_BROKERS")))) {
    return EventLogKafka.readRawKafka(yield* kafkaOptionsConfig)
  }
  const dataDir = yield* Config.String("DATA_DIR").pipe(Config.withDefault("./data"))
  return EventLogEmbedded.readRawEmbedded(path.join(dataDir, "eventlog"))
})

const check = Effect.gen(function*() {
  const verifier = EventLogIntegrity.makeChainVerifier()
  yield* Stream.runForEach(yield* rawLog, (record) => Effect.sync(() => verifier.add(record))).pipe(Effect.scoped)
  return verifier.report()
})

/**
 * `synth events verify`: walks every topic of the log to its end, checks each producer's chain of seals and prints
 * per chain its size, head and first problem; exits 1 when anything does not verify.
 */
const verify = ({ json }: { readonly json: boolean }) =>
  Effect.gen(function*() {
    const report = yield* check
    yield* Console.log(json ? JSON.stringify(report) : describe(report))
    if (!report.ok) {
      const problems = report.chains.filter((chain) => chain.problem !== null).length + report.undecodable.length
      return yield* new VerificationFailed({ message: `the event log does not verify (${problems} problems)` })
    }
  })

export const verifyCommand = Command.make("verify", options, verify).pipe(
  Command.withDescription(
    "Verify the event log's tamper evidence: every producer's chain of seals, walked over every topic to its end. " +
      "Prints each chain's events, head (sequence and hash: keep it elsewhere to detect a truncated tail) and first " +
      "altered, missing or reordered event; exits 1 when any problem is found. Embedded (DATA_DIR: stop the server " +
      "first) or Kafka when KAFKA_BROKERS is set."
  )
)
