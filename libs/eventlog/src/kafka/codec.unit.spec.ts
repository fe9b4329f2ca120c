import { describe, expect, it } from "@effect/vitest"
import { partitionOf } from "./codec.ts"

describe("Kafka partitioning", () => {
  // Computed with the Java client (kafka-clients 3.9.1): Utils.toPositive(Utils.murmur2(utf8(key))) % partitions,
  // which is how its default partitioner places a keyed record. Agreeing with it lets any Kafka client find an
  // aggregate's partition.
  it("puts a key where the Java client puts it", () => {
    const expected: ReadonlyArray<readonly [string, number, number]> = [
      ["a", 1, 4],
      ["agg", 1, 4],
      ["user-42", 1, 4],
      ["00000000-0000-4000-8000-000000000007", 1, 1],
      ["0190f1c2-7a4e-7b3c-9d2e-5f6a7b8c9d0e", 0, 9],
      ["é😀", 2, 5]
    ]
    for (const [key, ofThree, ofTwelve] of expected) {
      expect([partitionOf("any", key, 3), partitionOf("any", key, 12)]).toEqual([ofThree, ofTwelve])
    }
  })
})
