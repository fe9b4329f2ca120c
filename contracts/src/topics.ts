/**
 * The topic registry. One topic per aggregate; the Kafka key is the aggregate id, so each aggregate's events stay
 * ordered within one partition.
 */
export const Topics = {
  user: { name: "synth.user", aggregate: "user", description: "Accounts, logins and refresh-token rotation" },
  dataset: { name: "synth.dataset", aggregate: "dataset", description: "Uploads, ingestion, profiles, scans" },
  generator: { name: "synth.generator", aggregate: "generator", description: "Generation jobs and their progress" },
  evaluation: { name: "synth.evaluation", aggregate: "evaluation", description: "Evaluation runs and results" }
} as const

export type TopicKey = keyof typeof Topics
export type TopicName = (typeof Topics)[TopicKey]["name"]

export const allTopicNames: ReadonlyArray<TopicName> = Object.values(Topics).map((topic) => topic.name)
