import type { DomainEvent, DomainEventOf, DomainEventType } from "./catalog.ts"
import { generatorEvents } from "./generator.ts"

/**
 * Who appends and who reacts to each event. This is the single source of docs/events.md's producer and consumer
 * columns, and the services hold to it in code: every consumer lets through only what `consumedBy(itself)` accepts,
 * so a `case` for an event its entry does not list fails to compile, and a unit test
 * (scripts/eventCatalog/participants.unit.spec.ts) checks each producer really appends its events.
 */
export const eventServices = ["gateway", "ingest", "profiling", "privacy", "generation", "evaluation"] as const
export type EventService = (typeof eventServices)[number]

/** Exactly one service appends each event type; a type missing here does not compile. */
export const eventProducers: { readonly [Type in DomainEventType]: EventService } = {
  "user.registered": "gateway",
  "user.logged-in": "gateway",
  "user.login-failed": "gateway",
  "user.token-refreshed": "gateway",
  "user.refresh-token-reused": "gateway",
  "user.forgotten": "gateway",
  "dataset.uploaded": "gateway",
  "dataset.ingested": "ingest",
  "dataset.ingest-failed": "ingest",
  "dataset.deleted": "gateway",
  "dataset.profile-requested": "gateway",
  "dataset.profiled": "profiling",
  "dataset.profile-failed": "profiling",
  "dataset.pii-scan-requested": "gateway",
  "dataset.pii-scanned": "privacy",
  "dataset.pii-scan-failed": "privacy",
  "dataset.synthesized": "generation",
  "generator.requested": "gateway",
  "generator.started": "generation",
  "generator.prepared": "generation",
  "generator.progressed": "generation",
  "generator.completed": "generation",
  "generator.failed": "generation",
  "generator.cancel-requested": "gateway",
  "generator.cancelled": "generation",
  "generator.requeued": "generation",
  "generator.sample-requested": "gateway",
  "generator.sampled": "generation",
  "generator.sample-failed": "generation",
  "generator.deleted": "gateway",
  "evaluation.requested": "gateway",
  "evaluation.completed": "evaluation",
  "evaluation.failed": "evaluation",
  "evaluation.deleted": "gateway"
}

interface ConsumerEntry {
  readonly service: EventService
  /** The part of the service that reacts, as the catalog names it. */
  readonly role: string
  readonly events: ReadonlyArray<DomainEventType>
}

/** Every part of a service that reacts to events, and the events it reacts to. */
export const eventConsumers = {
  usersProjection: {
    service: "gateway",
    role: "`users` projection",
    events: ["user.registered", "user.logged-in", "user.token-refreshed", "user.refresh-token-reused", "user.forgotten"]
  },
  datasetsProjection: {
    service: "gateway",
    role: "`datasets` projection",
    events: [
      "dataset.uploaded",
      "dataset.ingested",
      "dataset.ingest-failed",
      "dataset.deleted",
      "dataset.profile-requested",
      "dataset.profiled",
      "dataset.profile-failed",
      "dataset.pii-scan-requested",
      "dataset.pii-scanned",
      "dataset.pii-scan-failed",
      "dataset.synthesized"
    ]
  },
  generatorsProjection: {
    service: "gateway",
    role: "`generators` projection",
    events: [
      "generator.requested",
      "generator.started",
      "generator.prepared",
      "generator.progressed",
      "generator.requeued",
      "generator.completed",
      "generator.failed",
      "generator.cancelled",
      "generator.sample-requested",
      "generator.sampled",
      "generator.sample-failed",
      "generator.deleted"
    ]
  },
  ingestion: { service: "ingest", role: "ingestion worker", events: ["dataset.uploaded", "dataset.deleted"] },
  profiling: { service: "profiling", role: "profiling worker", events: ["dataset.profile-requested", "dataset.deleted"] },
  piiScanning: { service: "privacy", role: "scan worker", events: ["dataset.pii-scan-requested", "dataset.deleted"] },
  generationDispatcher: {
    service: "generation",
    role: "dispatcher",
    events: ["generator.requested", "generator.requeued", "generator.sample-requested"]
  },
  evaluationsProjection: {
    service: "gateway",
    role: "`evaluations` projection",
    events: ["evaluation.requested", "evaluation.completed", "evaluation.failed", "evaluation.deleted"]
  },
  evaluator: { service: "evaluation", role: "evaluation worker", events: ["evaluation.requested"] },
  // Every event of a job is a sign of life for the watchdog, so the monitor takes the whole topic.
  generationJobMonitor: {
    service: "generation",
    role: "job monitor",
    events: generatorEvents.map((definition) => definition.type)
  }
} as const satisfies Record<string, ConsumerEntry>

export type EventConsumer = keyof typeof eventConsumers
export type ConsumedEvent<Consumer extends EventConsumer> = DomainEventOf<
  (typeof eventConsumers)[Consumer]["events"][number]
>

/** The filter a consumer applies to what it receives; it narrows the event to the types the consumer lists. */
export const consumedBy = <Consumer extends EventConsumer>(consumer: Consumer) => {
  const types: ReadonlySet<string> = new Set(eventConsumers[consumer].events)
  return (event: DomainEvent): event is ConsumedEvent<Consumer> => types.has(event.type)
}

export const consumersOf = (type: DomainEventType): ReadonlyArray<EventConsumer> =>
  (Object.keys(eventConsumers) as Array<EventConsumer>).filter((consumer) =>
    (eventConsumers[consumer].events as ReadonlyArray<string>).includes(type)
  )
