import type { AiColumnVerdict, ColumnSample, PiiType, ScanInput } from "@synth/pii"
import { columnShapeSummary } from "@synth/pii/value-shape"
import { piiTypes } from "@synth/pii/types"
import { Schema } from "effect"

/**
 * What the enhanced scan sends to an OpenAI-compatible model, and how it reads the answer. Per column: its name, its
 * inferred type, the share of non-missing and of distinct values in the sample, and the most common value shapes
 * (letters become `a`/`A`, digits `9`: `Aaaa Aaaaa`, `999-99-9999`) with their shares. Never a value, masked or not:
 * shapes are what the local classifier also sees, and no value can be read back from them.
 */

const maxShapesPerColumn = 8
const round = (share: number) => Math.round(share * 1000) / 1000

const describeColumn = (column: ColumnSample) => {
  const present = column.values.filter((value): value is string => value !== null)
  const total = column.values.length
  return {
    name: column.name,
    type: column.kind,
    non_missing_share: total === 0 ? 0 : round(present.length / total),
    distinct_share: present.length === 0 ? 0 : round(new Set(present).size / present.length),
    value_shapes: columnShapeSummary(column, maxShapesPerColumn).map((entry) => ({
      shape: entry.shape,
      share: round(entry.share)
    }))
  }
}

export const systemPrompt = `You classify the columns of a tabular dataset by the kind of personal data they hold.
You see each column's name, type, shares of non-missing and distinct values, and value shapes (letters replaced by
a/A, digits by 9, punctuation kept); you never see values. Column names may be in any language or abbreviated.
For every column answer its type, one of: ${piiTypes.join(", ")}; or "none" when the column holds no personal
data (order numbers, product codes, prices, quantities, categories, timestamps of events, free text without
identities). person_name includes columns of first or last names only and columns named after a role (employee,
manager, who, contact). city is the town or city someone lives or works in (location data that singles people
out together with age or a postcode). Decimal numbers are measurements (a latitude or longitude only as such, never
a phone number); integers of 9 to 13 digits in a column named like a time (ts, epoch, created, *_ms) are Unix
timestamps: "none". Give a confidence between 0 and 1.`

/** The user message: the dataset's columns as JSON. */
export const userMessage = (input: ScanInput) =>
  JSON.stringify({ row_count: input.rowCount, columns: input.columns.map(describeColumn) })

const typeChoices: ReadonlyArray<string> = [...piiTypes, "none"]

/** The JSON schema of the answer (OpenAI structured outputs, strict mode). */
export const responseFormat = {
  type: "json_schema",
  json_schema: {
    name: "pii_column_classification",
    strict: true,
    schema: {
      type: "object",
      additionalProperties: false,
      required: ["columns"],
      properties: {
        columns: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["column", "type", "confidence"],
            properties: {
              column: { type: "string" },
              type: { type: "string", enum: typeChoices },
              confidence: { type: "number" }
            }
          }
        }
      }
    }
  }
} as const

const Answer = Schema.fromJsonString(
  Schema.Struct({
    columns: Schema.Array(
      Schema.Struct({
        column: Schema.String,
        type: Schema.Literals([...piiTypes, "none"]),
        confidence: Schema.Number
      })
    )
  })
)

/**
 * The verdicts in a model's answer, for the input's columns only (a column the model invented is dropped, one it
 * left out gets no verdict), confidences clamped to 0..1. Undefined when the answer does not follow the schema.
 */
export const verdictsFromAnswer = (input: ScanInput, content: string): ReadonlyArray<AiColumnVerdict> | undefined => {
  const decoded = Schema.decodeUnknownOption(Answer)(content)
  if (decoded._tag === "None") return undefined
  const names = new Set(input.columns.map((column) => column.name))
  const seen = new Set<string>()
  const verdicts: Array<AiColumnVerdict> = []
  for (const entry of decoded.value.columns) {
    if (!names.has(entry.column) || seen.has(entry.column) || !Number.isFinite(entry.confidence)) continue
    seen.add(entry.column)
    verdicts.push({
      column: entry.column,
      type: entry.type === "none" ? null : (entry.type as PiiType),
      confidence: Math.min(1, Math.max(0, entry.confidence))
    })
  }
  return verdicts
}
