import { describe, expect, it } from "@effect/vitest"
import type { EventEnvelope } from "@synth/contracts"
import { Schema } from "effect"
import { canonicalJson } from "./canonicalJson.ts"
import { type ChainHead, sealEnvelope } from "./seal.ts"
import { type RawRecord, verifyChains } from "./verifyChains.ts"

const envelope = (n: number): typeof EventEnvelope.Encoded => ({
  eventId: `0190a000-0000-7000-8000-${String(n).padStart(12, "0")}`,
  type: "user.registered",
  version: 1,
  aggregateId: `user-${n}`,
  occurredAt: "2026-11-23T05:00:00.000Z",
  actor: "anonymous",
  correlationId: "c",
  causationId: null,
  payload: { n, text: "é 😀 \u0000" }
})

/** A sealed chain of `count` links stored at offsets 0.. of one partition. */
const chain = (count: number, name = "gateway", topic = "users"): Array<RawRecord> => {
  let head: ChainHead | undefined
  return Array.from({ length: count }, (_, index) => {
    const sealed = sealEnvelope(envelope(index), name, head)
    head = { sequence: sealed.integrity.sequence, hash: sealed.integrity.hash }
    return { topic, partition: 0, offset: index, text: JSON.stringify(sealed) }
  })
}

const renumbered = (records: ReadonlyArray<RawRecord>) => records.map((record, offset) => ({ ...record, offset }))

describe("canonicalJson (RFC 8785)", () => {
  it("sorts members by UTF-16 code units and writes numbers as ECMAScript does", () => {
    // RFC 8785 section 3.2.3's sorting example and a few of appendix B's numbers.
    expect(canonicalJson({ "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew", "1": "One", "\ud83d\ude00": "Emoji", "\u0080": "Control", "\u00f6": "Latin" }))
      .toBe(`{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin","€":"Euro Sign","😀":"Emoji","דּ":"Hebrew"}`)
    expect(canonicalJson([1e21, 1e-7, -0, 333333333.3333333, 4.5, 0.002])).toBe("[1e+21,1e-7,0,333333333.3333333,4.5,0.002]")
    expect(canonicalJson({ b: [true, null, { d: 1, c: "x" }], a: "\u0001\n" })).toBe(`{"a":"\\u0001\\n","b":[true,null,{"c":"x","d":1}]}`)
  })

  it("does not depend on the order members were written in", () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }))
  })

  it("refuses values JSON cannot carry", () => {
    expect(() => canonicalJson(Number.NaN)).toThrow()
    expect(() => canonicalJson(1n)).toThrow()
  })
})

describe("sealEnvelope", () => {
  it("links each event to its predecessor and keeps the envelope decodable", () => {
    const [first, second] = chain(2).map((record) => JSON.parse(record.text) as typeof EventEnvelope.Encoded)
    expect(first?.integrity).toMatchObject({ chain: "gateway", sequence: 1, previous: null })
    expect(second?.integrity).toMatchObject({ chain: "gateway", sequence: 2, previous: first?.integrity?.hash })
    expect(Schema.decodeUnknownSync(Schema.Struct({ integrity: Schema.Unknown }))(second)).toBeDefined()
  })

  it("replaces a seal the envelope came with", () => {
    const forged = { ...envelope(0), integrity: { chain: "x", sequence: 9, previous: null, hash: "0".repeat(64) } }
    expect(sealEnvelope(forged, "gateway", undefined).integrity).toMatchObject({ chain: "gateway", sequence: 1 })
  })
})

describe("verifyChains", () => {
  it("verifies intact chains and reports each chain's head", () => {
    const gateway = chain(5)
    const ingest = chain(3, "ingest", "datasets")
    const report = verifyChains([...gateway, ...ingest])
    expect(report.ok).toBe(true)
    expect(report.records).toBe(8)
    expect(report.chains.map((chain) => [chain.chain, chain.events, chain.head?.sequence, chain.problem])).toEqual([
      ["gateway", 5, 5, null],
      ["ingest", 3, 3, null]
    ])
    expect(report.chains[0]?.head?.hash).toBe(JSON.parse(gateway[4]!.text).integrity.hash)
  })

  it("reports a changed byte as altered at that event", () => {
    const records = chain(5)
    records[2] = { ...records[2]!, text: records[2]!.text.replace(`"n":2`, `"n":3`) }
    const [report] = verifyChains(records).chains
    expect(report?.problem).toMatchObject({ kind: "altered", offset: 2, sequence: 3, eventId: envelope(2).eventId })
  })

  it("reports a changed seal as altered", () => {
    const records = chain(3)
    records[1] = { ...records[1]!, text: records[1]!.text.replace(`"sequence":2`, `"sequence":7`) }
    expect(verifyChains(records).chains[0]?.problem).toMatchObject({ kind: "altered", offset: 1 })
  })

  it("reports a record that is not even JSON as altered, without naming a chain", () => {
    const records = chain(3)
    records[1] = { ...records[1]!, text: records[1]!.text.slice(0, -1) }
    const report = verifyChains(records)
    expect(report.ok).toBe(false)
    expect(report.undecodable).toEqual([expect.objectContaining({ kind: "altered", offset: 1, eventId: null })])
  })

  it("reports a removed event as missing at its successor", () => {
    const records = chain(5)
    const report = verifyChains(renumbered([...records.slice(0, 2), ...records.slice(3)]))
    expect(report.chains[0]?.problem).toMatchObject({ kind: "missing", sequence: 4, offset: 2 })
  })

  it("reports a removed first event as missing", () => {
    expect(verifyChains(renumbered(chain(3).slice(1))).chains[0]?.problem).toMatchObject({ kind: "missing", sequence: 2 })
  })

  it("reports a link whose predecessor was replaced by a re-sealed forgery as missing", () => {
    const records = chain(3)
    const forged = sealEnvelope({ ...envelope(1), payload: { n: 99 } }, "gateway", {
      sequence: 1,
      hash: JSON.parse(records[0]!.text).integrity.hash
    })
    records[1] = { ...records[1]!, text: JSON.stringify(forged) }
    expect(verifyChains(records).chains[0]?.problem).toMatchObject({ kind: "missing", sequence: 3, offset: 2 })
  })

  it("reports swapped events of one partition as reordered", () => {
    const records = chain(4)
    const swapped = renumbered([records[0]!, records[2]!, records[1]!, records[3]!])
    expect(verifyChains(swapped).chains[0]?.problem).toMatchObject({ kind: "reordered", sequence: 3, offset: 1 })
  })

  it("reports a duplicated event as reordered", () => {
    const records = chain(3)
    const report = verifyChains(renumbered([...records, records[1]!]))
    expect(report.chains[0]?.problem).toMatchObject({ kind: "reordered", sequence: 2, offset: 3 })
  })

  it("accepts a chain spread over topics and partitions in any read order", () => {
    const records = chain(6).map((record, index) => ({ ...record, topic: index % 2 === 0 ? "a" : "b", offset: Math.floor(index / 2) }))
    const byTopic = [...records.filter((record) => record.topic === "b"), ...records.filter((record) => record.topic === "a")]
    expect(verifyChains(byTopic).ok).toBe(true)
  })

  it("counts unsealed events without failing them", () => {
    const unsealed = { topic: "users", partition: 0, offset: 0, text: JSON.stringify(envelope(0)) }
    const report = verifyChains([unsealed, ...chain(2).map((record) => ({ ...record, offset: record.offset + 1 }))])
    expect(report).toMatchObject({ ok: true, unsealed: 1, records: 3 })
  })
})
