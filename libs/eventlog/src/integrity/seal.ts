import { createHash } from "node:crypto"
import { type EventEnvelope, eventProducers, type Integrity } from "@synth/contracts"
import { canonicalJson } from "./canonicalJson.ts"

/** The last link of a chain: what the next event's seal continues from. */
export interface ChainHead {
  readonly sequence: number
  readonly hash: string
}

type Encoded = typeof EventEnvelope.Encoded

/** The chain an event type belongs to: its producer's (contracts/src/events/participants.ts). */
export const producerOf = (type: string): string =>
  Object.hasOwn(eventProducers, type) ? eventProducers[type as keyof typeof eventProducers] : "unlisted"

/** SHA-256 (hex) of the canonical JSON of an envelope whose `integrity.hash` is left out. */
export const sealHash = (unhashed: unknown): string => createHash("sha256").update(canonicalJson(unhashed)).digest("hex")

/**
 * The envelope as the log stores it: sealed as the link after `head` (the first link when there is none) of `chain`.
 * A seal the envelope came with is replaced: only the log assigns seals.
 */
export const sealEnvelope = (envelope: Encoded, chain: string, head: ChainHead | undefined): Encoded & { readonly integrity: Integrity } => {
  const { integrity: _replaced, ...content } = envelope
  const link = { chain, sequence: (head?.sequence ?? 0) + 1, previous: head?.hash ?? null }
  const hash = sealHash({ ...content, integrity: link })
  return { ...content, integrity: { ...link, hash } }
}
