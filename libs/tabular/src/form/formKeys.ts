/**
 * Field metadata of a normalised table that say how the source wrote a column, so that a download can write it the
 * same way (docs/datasets.md, "Source form"). Ingestion records them; synthetic tables copy them from their source.
 * They describe the column's spelling and layout, never a value of it.
 */
export const formKeys = {
  /** Booleans: the spelling of true and of false, exactly (`Yes`, `no`, `1`). */
  trueText: "synth.trueText",
  falseText: "synth.falseText",
  /** Dates and datetimes: the layout (`M/D/YYYY`, `DD.MM.YYYY HH:mm`, `YYYY-MM-DDTHH:mm:ss.SSSXXX`; see dateLayout). */
  layout: "synth.layout",
  /** Datetimes written with an offset: the offset they are written in, `+02:00` (values are stored in UTC). */
  utcOffset: "synth.utcOffset",
  /** Numbers: `,` when the file used a decimal comma (absent: a dot). */
  decimalMark: "synth.decimalMark",
  /** Numbers: the thousands separator the file used (`,` or `.`); absent when it used none. */
  groupMark: "synth.groupMark",
  /** Floats: the fewest and most digits after the decimal mark the file wrote (absent with exponents). */
  minDecimals: "synth.minDecimals",
  maxDecimals: "synth.maxDecimals",
  /** JSON: the keys of a column flattened from nested objects, as a JSON array (`["address","city"]`). */
  path: "synth.path",
  /** JSON: `true` when every value of the column was an array (kept as its JSON text). */
  jsonArray: "synth.jsonArray"
} as const

/** Schema metadata: the CSV delimiter of the source file. */
export const delimiterKey = "synth.delimiter"
export const formatKey = "synth.format"
export const encodingKey = "synth.encoding"
