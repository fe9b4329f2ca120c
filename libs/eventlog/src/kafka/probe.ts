import { Admin } from "@platformatic/kafka"

/**
 * Whether the broker at `broker` (host:port) serves cluster metadata naming a controller: it is then able to create
 * topics and serve groups. For tooling that starts a broker and waits for it (deploy/local), without Effect.
 */
export const kafkaBrokerReady = async (broker: string): Promise<boolean> => {
  const admin = new Admin({ clientId: "local-kafka-probe", bootstrapBrokers: [broker], retries: 0, connectTimeout: 1_000 })
  try {
    const metadata = await admin.metadata({ topics: [] })
    return metadata.brokers.size > 0 && metadata.controllerId >= 0
  } catch {
    return false
  } finally {
    await admin.close().catch(() => undefined)
  }
}
