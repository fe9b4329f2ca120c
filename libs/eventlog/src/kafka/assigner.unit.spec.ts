import { describe, expect, it } from "@effect/vitest"
import { type Claims, decodeClaims, encodeClaims, type Member, planAssignment, type TopicPartition } from "./assigner.ts"

const nothing: Claims = { owned: [], busy: undefined }
const member = (memberId: string, claims: Claims = nothing, topics: ReadonlyArray<string> = ["t"]): Member => ({
  memberId,
  topics,
  claims
})
const threePartitions = new Map([["t", 3]])
const sortedPartitions = (partitions: ReadonlyArray<TopicPartition> | undefined) =>
  [...(partitions ?? [])].map(([, partition]) => partition).sort()

describe("Kafka group assignment", () => {
  it("keeps the partition whose event a member is handling with it, whoever else holds or joins", () => {
    const busy: Claims = { owned: [["t", 0], ["t", 1], ["t", 2]], busy: ["t", 2] }
    const plan = planAssignment([member("z-busy", busy), member("a-new")], threePartitions)
    expect(sortedPartitions(plan.get("z-busy"))).toContain(2)
    expect(sortedPartitions(plan.get("a-new"))).toHaveLength(1)
  })

  it("lets members keep what they held up to an even share, and gives the rest to those with the fewest", () => {
    const plan = planAssignment(
      [member("a", { owned: [["t", 0], ["t", 1], ["t", 2]], busy: undefined }), member("b"), member("c")],
      threePartitions
    )
    expect([plan.get("a"), plan.get("b"), plan.get("c")].map(sortedPartitions)).toEqual([[0], [1], [2]])
  })

  it("gives every partition to exactly one member, only to members that subscribe to its topic", () => {
    const counts = new Map([["t", 3], ["u", 2]])
    const plan = planAssignment(
      [
        member("a", { owned: [["t", 0], ["u", 0]], busy: ["u", 1] }, ["t", "u"]),
        member("b", { owned: [["t", 0], ["t", 9]], busy: undefined }, ["t"]),
        member("c", nothing, ["u"])
      ],
      counts
    )
    const given = [...plan.values()].flat().map(([topic, partition]) => `${topic}${partition}`).sort()
    expect(given).toEqual(["t0", "t1", "t2", "u0", "u1"])
    expect(plan.get("b")!.every(([topic]) => topic === "t")).toBe(true)
    expect(plan.get("c")!.every(([topic]) => topic === "u")).toBe(true)
  })

  it("reads back the claims it wrote, and reads foreign metadata as no claims", () => {
    const claims: Claims = { owned: [["t", 0]], busy: ["t", 0] }
    expect(decodeClaims(encodeClaims(claims))).toEqual(claims)
    expect(decodeClaims(Buffer.from([0, 1, 2]))).toEqual(nothing)
    expect(decodeClaims(undefined)).toEqual(nothing)
  })
})
