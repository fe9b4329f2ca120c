import type {
  ClusterMetadata,
  ExtendedGroupProtocolSubscription,
  GroupPartitionsAssigner,
  GroupPartitionsAssignments
} from "@platformatic/kafka"

/** A partition of a topic, as the broker names the topic. */
export type TopicPartition = readonly [topic: string, partition: number]

/** What a member tells the group's leader when it (re)joins: the partitions it holds, and the one whose event it is handling. */
export interface Claims {
  readonly owned: ReadonlyArray<TopicPartition>
  readonly busy: TopicPartition | undefined
}

export interface Member {
  readonly memberId: string
  readonly topics: ReadonlyArray<string>
  readonly claims: Claims
}

/** The group protocol our members speak: every member of a group runs this adapter, so they all name the same one. */
export const keepBusyProtocol = { name: "synth-keep-busy", version: 1 }

export const encodeClaims = (claims: Claims): Buffer =>
  Buffer.from(JSON.stringify({ owned: claims.owned, busy: claims.busy ?? null }), "utf8")

const isTopicPartition = (value: unknown): value is TopicPartition =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && Number.isInteger(value[1])

/** Metadata a member did not write (or wrote in a form this version does not know) claims nothing. */
export const decodeClaims = (metadata: Buffer | string | undefined): Claims => {
  try {
    const json = JSON.parse(Buffer.isBuffer(metadata) ? metadata.toString("utf8") : metadata ?? "") as {
      readonly owned?: unknown
      readonly busy?: unknown
    }
    return {
      owned: Array.isArray(json.owned) ? json.owned.filter(isTopicPartition) : [],
      busy: isTopicPartition(json.busy) ? json.busy : undefined
    }
  } catch {
    return { owned: [], busy: undefined }
  }
}

const byId = (left: Member, right: Member) => (left.memberId < right.memberId ? -1 : left.memberId > right.memberId ? 1 : 0)

/**
 * Who gets which partition. A member keeps the partition whose event it is handling: its handler runs on, its
 * offset is committed once it succeeds, and no other member gets that event meanwhile (a long handler, such as a
 * model's training, is neither interrupted nor duplicated by a member joining). Members then keep what they held,
 * up to an even share, and the rest goes to the members holding the fewest.
 */
export const planAssignment = (
  members: ReadonlyArray<Member>,
  partitionCounts: ReadonlyMap<string, number>
): ReadonlyMap<string, ReadonlyArray<TopicPartition>> => {
  const sorted = [...members].sort(byId)
  const all = [...partitionCounts.keys()].sort().flatMap((topic) =>
    Array.from({ length: partitionCounts.get(topic)! }, (_, partition): TopicPartition => [topic, partition])
  )
  const share = Math.ceil(all.length / Math.max(1, sorted.length))
  const keyOf = ([topic, partition]: TopicPartition) => `${partition}:${topic}`
  const exists = (candidate: TopicPartition) => candidate[1] >= 0 && candidate[1] < (partitionCounts.get(candidate[0]) ?? 0)
  const taken = new Set<string>()
  const assigned = new Map(sorted.map((member) => [member.memberId, [] as Array<TopicPartition>]))
  const give = (member: Member, candidate: TopicPartition) => {
    taken.add(keyOf(candidate))
    assigned.get(member.memberId)!.push(candidate)
  }
  const canTake = (member: Member, candidate: TopicPartition) =>
    exists(candidate) && member.topics.includes(candidate[0]) && !taken.has(keyOf(candidate))

  for (const member of sorted) {
    const busy = member.claims.busy
    if (busy !== undefined && canTake(member, busy)) give(member, busy)
  }
  for (const member of sorted) {
    for (const owned of member.claims.owned) {
      if (assigned.get(member.memberId)!.length < share && canTake(member, owned)) give(member, owned)
    }
  }
  for (const candidate of all) {
    if (taken.has(keyOf(candidate))) continue
    const takers = sorted.filter((member) => canTake(member, candidate))
    const fewest = takers.reduce<Member | undefined>(
      (best, member) =>
        best === undefined || assigned.get(member.memberId)!.length < assigned.get(best.memberId)!.length ? member : best,
      undefined
    )
    if (fewest !== undefined) give(fewest, candidate)
  }
  return assigned
}

/** `planAssignment` as the group's leader runs it, over the members' decoded claims and the topics' partition counts. */
export const keepBusyAssigner: GroupPartitionsAssigner = (
  _leader: string,
  members: Map<string, ExtendedGroupProtocolSubscription>,
  topics: Set<string>,
  metadata: ClusterMetadata
): Array<GroupPartitionsAssignments> => {
  const partitionCounts = new Map([...topics].map((topic) => [topic, metadata.topics.get(topic)?.partitionsCount ?? 0]))
  const plan = planAssignment(
    [...members.values()].map((member) => ({
      memberId: member.memberId,
      topics: member.topics ?? [...topics],
      claims: decodeClaims(member.metadata)
    })),
    partitionCounts
  )
  return [...plan].map(([memberId, partitions]) => {
    const assignments = new Map<string, { topic: string; partitions: Array<number> }>()
    for (const [topic, partition] of partitions) {
      const forTopic = assignments.get(topic) ?? { topic, partitions: [] }
      forTopic.partitions.push(partition)
      assignments.set(topic, forTopic)
    }
    return { memberId, assignments }
  })
}
