import { EventEnvelope, eventCatalog, Topics } from "@synth/contracts"
import { Schema } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { diffSummary } from "./eventCatalog/diffSummary.ts"
import { envelopeFieldNotes, envelopeTable, renderEventCatalog } from "./eventCatalog/render.ts"

const committedPath = new URL("../docs/events.md", import.meta.url)

describe("docs/events.md", () => {
  const rendered = renderEventCatalog()

  it("is the catalog the contracts render today", () => {
    const committed = existsSync(committedPath) ? readFileSync(committedPath, "utf8") : ""
    const stale = committed === rendered
      ? ""
      : `docs/events.md is stale: ${diffSummary(committed, rendered)}\n` +
        "Regenerate it with `npm run events:catalog` and commit the result."
    expect(stale).toBe("")
  })

  it("has a section for every topic and a heading for every event", () => {
    for (const topic of Object.values(Topics)) expect(rendered).toContain(`## \`${topic.name}\`: ${topic.description}`)
    for (const definition of eventCatalog) {
      expect(rendered).toContain(`### \`${definition.type}\` v${definition.version}\n\n${definition.description}\n`)
    }
  })

  it("leaves no placeholder of the template unfilled", () => {
    expect(rendered).not.toMatch(/\{\{\w+\}\}/)
  })

  it("names each event's producer and consumers", () => {
    expect(rendered).toContain(
      "Producer: gateway. Consumers: gateway (`datasets` projection), ingest (ingestion worker), " +
        "profiling (profiling worker), privacy (scan worker)."
    )
    expect(rendered).toContain("Producer: gateway. Consumers: none (it is kept in the log for audit).")
  })
})

describe("the envelope table", () => {
  it("explains every field of the envelope", () => {
    expect(envelopeTable(EventEnvelope.ast, envelopeFieldNotes)).toContain(
      "| `causationId` | `string \\| null` | The event this one reacts to"
    )
  })

  it("refuses a field nobody explained", () => {
    const withNewField = Schema.Struct({ ...EventEnvelope.fields, tenantId: Schema.String })
    expect(() => envelopeTable(withNewField.ast, envelopeFieldNotes)).toThrow(/tenantId has no note/)
  })
})

describe("diffSummary", () => {
  it("points at the first differing line and lists what each side alone has", () => {
    const summary = diffSummary("a\nb\nc\n", "a\nB\nc\nd\n")
    expect(summary.split("\n")).toEqual([
      "first difference at line 2; 1 line(s) only in the committed file, 2 only in the rendered catalog",
      "  - b",
      "  + B",
      "  + d"
    ])
  })

  it("does not count a moved line as changed", () => {
    expect(diffSummary("x\ny\n", "y\nx\n")).toMatch(/^first difference at line 1; 0 line\(s\) only in the committed file, 0 only/)
  })
})
