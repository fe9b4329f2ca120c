import {
  consumedBy,
  type DomainEvent,
  eventCatalog,
  eventConsumers,
  type EventConsumer,
  eventProducers,
  type EventService,
  eventServices
} from "@synth/contracts"
import { GeneratorJob } from "@synth/jobs"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * Checks the claims of contracts/src/events/participants.ts against the services' code. Consumers are held to
 * their lists by the compiler (see the type test below); what needs reading the source is who appends what, and
 * that every listed consumer really filters its input with `consumedBy`.
 */

const repositoryRoot = new URL("../..", import.meta.url).pathname

const sourceFiles = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".spec.ts") ? [path] : []
  })

const serviceSources = (service: EventService) =>
  sourceFiles(join(repositoryRoot, "services", service, "src")).map((path) => ({
    path: relative(repositoryRoot, path),
    text: readFileSync(path, "utf8")
  }))

/**
 * A service appends the events it builds as literals, `{ type: "…", version: n, payload }`, and those the generator
 * decider (libs/jobs) decides on the commands it issues, `{ _tag: "Start", … }` (the decider's `decidedTypes`).
 */
const appendedTypes = (source: string) => [
  ...[...source.matchAll(/\btype:\s*"([a-z]+\.[a-z-]+)",\s*version:\s*\d+/g)].map((match) => match[1]!),
  ...[...source.matchAll(/\b_tag:\s*"([A-Za-z]+)"/g)].flatMap((match) =>
    Object.hasOwn(GeneratorJob.decidedTypes, match[1]!)
      ? GeneratorJob.decidedTypes[match[1] as keyof typeof GeneratorJob.decidedTypes]
      : []
  )
]

describe("producers", () => {
  const appendedBy = new Map(
    eventServices.map((service) => [service, new Set(serviceSources(service).flatMap(({ text }) => appendedTypes(text)))])
  )

  it.each(eventCatalog.map((definition) => definition.type))("%s is appended by its producer and nobody else", (type) => {
    const appenders = eventServices.filter((service) => appendedBy.get(service)!.has(type))
    expect(appenders, `services whose source builds a ${type} event`).toEqual([eventProducers[type]])
  })

  it("finds no appended event type that the catalog lacks", () => {
    const known = new Set<string>(eventCatalog.map((definition) => definition.type))
    const unknown = [...appendedBy.values()].flatMap((types) => [...types].filter((type) => !known.has(type)))
    expect(unknown).toEqual([])
  })
})

describe("consumers", () => {
  it.each(Object.keys(eventConsumers) as Array<EventConsumer>)(
    "%s filters its input with consumedBy (or eventHandler), in exactly one place of its service",
    (consumer) => {
      // Directly, or through libs/eventlog's eventHandler, which filters with consumedBy(options.consumer).
      const call = `consumedBy("${consumer}")`
      const handler = new RegExp(`eventHandler\\(\\{\\s*consumer:\\s*"${consumer}"`)
      const users = eventServices.flatMap((service) =>
        serviceSources(service)
          .filter(({ text }) => text.includes(call) || handler.test(text))
          .map(({ path }) => ({ service, path }))
      )
      expect(users.map(({ service }) => service), `files calling ${call}: ${users.map(({ path }) => path).join(", ")}`)
        .toEqual([eventConsumers[consumer].service])
    }
  )

  it("lets through exactly the types a consumer lists", () => {
    const ingested = consumedBy("ingestion")
    const deleted = { type: "dataset.deleted", version: 1, payload: { datasetId: "x" } } as unknown as DomainEvent
    const profiled = { type: "dataset.profiled", version: 1, payload: {} } as unknown as DomainEvent
    expect(ingested(deleted)).toBe(true)
    expect(ingested(profiled)).toBe(false)
  })

  // Type test, checked by `tsc`: after the filter a consumer cannot even name an event its entry does not list.
  it("narrows the event to the listed types", () => {
    const handledTypes = (event: DomainEvent) => {
      if (!consumedBy("profiling")(event)) return "skipped"
      switch (event.type) {
        case "dataset.profile-requested":
        case "dataset.deleted":
          return event.type
        // @ts-expect-error: the profiling worker does not consume dataset.uploaded
        case "dataset.uploaded":
          return "unreachable"
      }
    }
    expect(handledTypes({ type: "dataset.uploaded", version: 1, payload: {} } as unknown as DomainEvent)).toBe("skipped")
  })
})
