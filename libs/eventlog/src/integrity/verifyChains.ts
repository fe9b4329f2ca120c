import { EventEnvelope } from "@synth/contracts"
import { Result, Schema } from "effect"
import { sealHash } from "./seal.ts"

/** A stored record exactly as the storage holds it, before any decoding: tampered bytes must not stop the walk. */
export interface RawRecord {
  readonly topic: string
  readonly partition: number
  readonly offset: number
  readonly text: string
}

export type ProblemKind = "altered" | "missing" | "reordered"

export interface Problem {
  readonly kind: ProblemKind
  readonly topic: string
  readonly partition: number
  readonly offset: number
  /** Null where the record does not even decode far enough to say. */
  readonly eventId: string | null
  readonly sequence: number | null
  readonly detail: string
}

export interface ChainReport {
  readonly chain: string
  readonly events: number
  /** The chain's last link: record it elsewhere to detect a truncated tail later. */
  readonly head: { readonly sequence: number; readonly hash: string } | null
  /** The first problem in sequence order; null when the chain verifies. */
  readonly problem: Problem | null
}

export interface VerifyReport {
  readonly records: number
  /** Records stored before the log sealed events: not verifiable, not failures. */
  readonly unsealed: number
  readonly chains: ReadonlyArray<ChainReport>
  /** Records that do not decode far enough to name their chain. */
  readonly undecodable: ReadonlyArray<Problem>
  readonly ok: boolean
}

interface Link {
  /** Where the link is stored (its text is not kept: a chain's links are held until the walk ends). */
  readonly record: Omit<RawRecord, "text">
  readonly eventId: string
  readonly sequence: number
  readonly previous: string | null
  readonly hash: string
  /** Why the link's content does not match its hash, if it does not. */
  readonly altered: string | null
}

const decodeEnvelope = Schema.decodeUnknownResult(EventEnvelope)

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

type Classified =
  | { readonly _tag: "Unsealed" }
  | { readonly _tag: "Undecodable"; readonly eventId: string | null; readonly detail: string }
  | { readonly _tag: "Link"; readonly chain: string; readonly link: Link }

const classify = (record: RawRecord): Classified => {
  const parsed = parse(record.text)
  if (!isObject(parsed)) return { _tag: "Undecodable", eventId: null, detail: "the stored record is not a JSON object" }
  const eventId = typeof parsed.eventId === "string" ? parsed.eventId : null
  const integrity = parsed.integrity
  if (integrity === undefined) return { _tag: "Unsealed" }
  if (
    !isObject(integrity) || typeof integrity.chain !== "string" || typeof integrity.sequence !== "number" ||
    typeof integrity.hash !== "string" || eventId === null
  ) {
    return { _tag: "Undecodable", eventId, detail: "the integrity seal does not decode" }
  }
  const { hash, ...unhashed } = integrity
  const expected = sealHash({ ...parsed, integrity: unhashed })
  const altered = expected !== hash
    ? "the content does not match its hash"
    : Result.isFailure(decodeEnvelope(parsed))
    ? "the record does not decode as an EventEnvelope"
    : null
  const previous = typeof integrity.previous === "string" ? integrity.previous : null
  return {
    _tag: "Link",
    chain: integrity.chain,
    link: { record: { topic: record.topic, partition: record.partition, offset: record.offset }, eventId, sequence: integrity.sequence, previous, hash: hash as string, altered }
  }
}

const problemAt = (link: Link, kind: ProblemKind, detail: string): Problem => ({
  kind,
  topic: link.record.topic,
  partition: link.record.partition,
  offset: link.record.offset,
  eventId: link.eventId,
  sequence: link.sequence,
  detail
})

const partitionOf = (record: Omit<RawRecord, "text">) => JSON.stringify([record.topic, record.partition])

/**
 * Walks one chain's links in sequence order and returns the first problem. An altered link comes first whatever its
 * place: its stored sequence cannot be trusted, so the gap or disorder it seems to cause is only its consequence.
 */
const firstProblem = (links: ReadonlyArray<Link>): Problem | null => {
  const altered = links.find((link) => link.altered !== null)
  if (altered !== undefined && altered.altered !== null) return problemAt(altered, "altered", altered.altered)
  const lastOffsetIn = new Map<string, number>()
  let before: Link | undefined
  for (const link of links) {
    const partition = partitionOf(link.record)
    const lastOffset = lastOffsetIn.get(partition)
    if (before !== undefined && link.sequence === before.sequence) {
      return problemAt(link, "reordered", `sequence ${link.sequence} appears twice`)
    }
    if (lastOffset !== undefined && link.record.offset < lastOffset) {
      return problemAt(link, "reordered", `sequence ${link.sequence} is stored before an earlier link of its partition`)
    }
    const expected = (before?.sequence ?? 0) + 1
    if (link.sequence !== expected) {
      return problemAt(link, "missing", `expected sequence ${expected}, found ${link.sequence}`)
    }
    if (link.previous !== (before?.hash ?? null)) {
      return problemAt(
        link,
        "missing",
        before === undefined
          ? "the first link names a predecessor"
          : `previous does not match the hash of sequence ${before.sequence}`
      )
    }
    lastOffsetIn.set(partition, link.record.offset)
    before = link
  }
  return null
}

/**
 * Verifies every producer chain in the records it is given (any order across partitions, offset order within each),
 * keeping only each link's position and hashes, so a log can be fed through it batch by batch.
 */
export const makeChainVerifier = () => {
  const chains = new Map<string, Array<Link>>()
  const undecodable: Array<Problem> = []
  let count = 0
  let unsealed = 0
  const add = (record: RawRecord): void => {
    count++
    const classified = classify(record)
    switch (classified._tag) {
      case "Unsealed":
        unsealed++
        break
      case "Undecodable":
        undecodable.push({
          kind: "altered",
          topic: record.topic,
          partition: record.partition,
          offset: record.offset,
          eventId: classified.eventId,
          sequence: null,
          detail: classified.detail
        })
        break
      case "Link": {
        const links = chains.get(classified.chain) ?? []
        links.push(classified.link)
        chains.set(classified.chain, links)
      }
    }
  }
  const report = (): VerifyReport => {
  const reports = [...chains.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(
    ([chain, links]): ChainReport => {
      const ordered = [...links].sort((a, b) => a.sequence - b.sequence)
      const last = ordered.at(-1)
      return {
        chain,
        events: links.length,
        head: last === undefined ? null : { sequence: last.sequence, hash: last.hash },
        problem: firstProblem(ordered)
      }
    }
  )
  return {
    records: count,
    unsealed,
    chains: reports,
    undecodable,
    ok: undecodable.length === 0 && reports.every((chain) => chain.problem === null)
  }
  }
  return { add, report }
}

export const verifyChains = (records: Iterable<RawRecord>): VerifyReport => {
  const verifier = makeChainVerifier()
  for (const record of records) verifier.add(record)
  return verifier.report()
}
