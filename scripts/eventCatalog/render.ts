import {
  consumersOf,
  EventEnvelope,
  eventCatalog,
  eventConsumers,
  eventProducers,
  eventUpcasters,
  Topics
} from "@synth/contracts"
import { readFileSync } from "node:fs"
import type { SchemaAST } from "effect"
import { type FieldRow, fieldRows } from "./schemaText.ts"

type EventDefinition = (typeof eventCatalog)[number]

/** What each envelope field is for. Rendering fails on a field missing here, so a new one cannot go unexplained. */
export const envelopeFieldNotes: Readonly<Record<string, string>> = {
  eventId: "Unique per event (a time-ordered UUID v7 when fresh); the log ignores a second append of the same id.",
  type: "The event type: which section of this catalog the payload follows.",
  version: "The version of that type's schema.",
  aggregateId: "The user, dataset or generator the event belongs to; the log's partition key.",
  occurredAt: "When the producer decided the event (ISO 8601, UTC).",
  actor:
    "Who caused it: `user:<uuid>`, `service:<name>` for a worker's outcome, or `anonymous` (a failed login for an " +
    "unknown email).",
  correlationId:
    "The id of the HTTP request (`X-Request-Id`) that started the chain: every event it led to, in any service, " +
    "carries it.",
  causationId:
    "The event this one reacts to (a worker's outcome names its request event); null for events decided on a " +
    "client's request. Projections match outcomes to requests with it.",
  payload: "The event's fields, listed under each event below.",
  integrity:
    "The log's tamper-evidence seal, set when the event is appended (absent on events stored before the log sealed " +
    "them and on envelopes not yet appended); see docs/audit.md.",
  "integrity.chain": "The producer chain the event belongs to.",
  "integrity.sequence": "Its place in that chain, from 1.",
  "integrity.previous": "The hash of the chain's previous event; null for the first.",
  "integrity.hash":
    "SHA-256 of the envelope's canonical JSON (RFC 8785) with `hash` left out, so chain, sequence and `previous` are " +
    "covered too."
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ")
const code = (text: string) => `\`${cell(text)}\``

const fieldTable = (rows: ReadonlyArray<FieldRow>, noteOf: (row: FieldRow) => string | undefined) =>
  [
    "| Field | Type | Description |",
    "| --- | --- | --- |",
    ...rows.map((row) => `| ${code(row.path)} | ${code(row.type)} | ${cell(noteOf(row) ?? "")} |`)
  ].join("\n")

export const envelopeTable = (envelope: SchemaAST.AST, notes: Readonly<Record<string, string>>) =>
  fieldTable(fieldRows(envelope), (row) => {
    const note = notes[row.path]
    if (note === undefined) throw new Error(`the envelope field ${row.path} has no note in envelopeFieldNotes`)
    return note
  })

const topicList = Object.values(Topics)

const topicTable = () =>
  [
    "| Topic | Aggregate | Events | Holds |",
    "| --- | --- | --- | --- |",
    ...topicList.map((topic) => {
      const count = eventCatalog.filter((definition) => definition.topic === topic.name).length
      return `| ${code(topic.name)} | ${topic.aggregate} | ${count} | ${cell(topic.description)} |`
    })
  ].join("\n")

const consumerText = (definition: EventDefinition) => {
  const consumers = consumersOf(definition.type).map((consumer) => {
    const { role, service } = eventConsumers[consumer]
    return `${service} (${role})`
  })
  return consumers.length === 0 ? "none (it is kept in the log for audit)" : consumers.join(", ")
}

const eventSection = (definition: EventDefinition) =>
  [
    `### ${code(definition.type)} v${definition.version}`,
    definition.description,
    `Producer: ${eventProducers[definition.type]}. Consumers: ${consumerText(definition)}.`,
    fieldTable(fieldRows(definition.payload.ast), (row) => row.description)
  ].join("\n\n")

type Upcaster = (typeof eventUpcasters)[number]

/** A superseded version: its own payload table and how its upcaster reads it as the next version. */
const supersededSection = (upcaster: Upcaster) =>
  [
    `### ${code(upcaster.from.type)} v${upcaster.from.version} (superseded by v${upcaster.to.version})`,
    upcaster.from.description,
    `No longer written; stored v${upcaster.from.version} events are decoded against this schema and upcast to ` +
    `v${upcaster.to.version} on read, so consumers see only the current version. Upcaster: ${upcaster.description}`,
    fieldTable(fieldRows(upcaster.from.payload.ast), (row) => row.description)
  ].join("\n\n")

const olderVersions = (definition: EventDefinition) =>
  eventUpcasters
    .filter((upcaster) => upcaster.from.type === definition.type)
    .toSorted((left, right) => right.from.version - left.from.version)
    .map(supersededSection)

const topicSection = (topic: (typeof topicList)[number]) => {
  const definitions = eventCatalog.filter((definition) => definition.topic === topic.name)
  return [
    `## ${code(topic.name)}: ${topic.description}`,
    ...(definitions.length === 0
      ? ["No events are published on this topic yet."]
      : definitions.flatMap((definition) => [eventSection(definition), ...olderVersions(definition)]))
  ].join("\n\n")
}

const fill = (template: string, parts: Readonly<Record<string, string>>) =>
  Object.entries(parts).reduce((text, [name, part]) => {
    const placeholder = `{{${name}}}`
    if (text.split(placeholder).length !== 2) throw new Error(`the template must hold ${placeholder} exactly once`)
    return text.replace(placeholder, () => part)
  }, template)

/** docs/events.md, rendered from the contracts and the prose of template.md. */
export const renderEventCatalog = () =>
  fill(readFileSync(new URL("./template.md", import.meta.url), "utf8"), {
    envelope: envelopeTable(EventEnvelope.ast, envelopeFieldNotes),
    topics: topicTable(),
    events: topicList.map(topicSection).join("\n\n")
  })
