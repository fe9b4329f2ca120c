import { type BaseOptions, findErrorBy } from "@platformatic/kafka"

/** What every client of one adapter instance shares: where the brokers are and how hard to retry a request. */
export interface ClientSettings {
  readonly brokers: ReadonlyArray<string>
  readonly clientId: string
}

/** 100 ms doubling to 2 s: ten retries ride out about 15 s of a broker restarting or a leader moving. */
const retryDelay = (_client: unknown, _operation: string, attempt: number) => Math.min(2_000, 100 * 2 ** (attempt - 1))

export const clientOptions = (settings: ClientSettings): BaseOptions => ({
  clientId: settings.clientId,
  bootstrapBrokers: [...settings.brokers],
  retries: 10,
  retryDelay
})

/**
 * A failure a moment's wait cures: the client marks such protocol and network errors retriable ("not the leader",
 * "unknown topic" while metadata catches up with a new topic, a dropped connection), and none of the errors it
 * wraps says otherwise.
 */
export const isRetriable = (error: unknown): boolean =>
  error instanceof Error && findErrorBy(error, "canRetry", true) !== null && findErrorBy(error, "canRetry", false) === null

/** The broker answered with this protocol error (by its name in the Kafka protocol, such as TOPIC_ALREADY_EXISTS). */
export const isProtocolError = (error: unknown, name: string): boolean =>
  error instanceof Error && findErrorBy(error, "apiId", name) !== null
