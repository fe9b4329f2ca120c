/**
 * Writes numbers as the source column did: its decimal mark, its thousands separator, and for floats the digits
 * after the mark it wrote (at least `minDecimals`, so `12.50` stays `12.50`; at most `maxDecimals`, so a synthetic
 * value is not more precise than the data it imitates).
 */
export interface NumberForm {
  readonly decimalMark: "." | ","
  readonly groupMark: "," | "." | null
  readonly minDecimals: number
  /** Infinity: as many as the value needs. */
  readonly maxDecimals: number
}

export const plainNumberForm: NumberForm = { decimalMark: ".", groupMark: null, minDecimals: 0, maxDecimals: Number.POSITIVE_INFINITY }

/**
 * The shortest text of the value that reads back as it (after rounding to `maxDecimals`), padded to `minDecimals`.
 * A value whose shortest text has an exponent keeps it.
 */
export const plainFloatText = (value: number, form: Pick<NumberForm, "minDecimals" | "maxDecimals">): string => {
  let text = String(value)
  if (text.includes("e")) return text
  const dot = text.indexOf(".")
  const decimals = dot < 0 ? 0 : text.length - dot - 1
  if (decimals > form.maxDecimals) {
    text = String(Number(value.toFixed(form.maxDecimals)))
    if (Object.is(Number(text), -0)) text = "0"
  }
  if (form.minDecimals === 0) return text
  const roundedDot = text.indexOf(".")
  const written = roundedDot < 0 ? 0 : text.length - roundedDot - 1
  if (written >= form.minDecimals) return text
  return (roundedDot < 0 ? `${text}.` : text) + "0".repeat(form.minDecimals - written)
}

/** Inserts `mark` every three digits of the integer part of `text` (a plain number with a `.` or no fraction). */
const grouped = (text: string, mark: string): string => {
  const sign = text.startsWith("-") ? "-" : ""
  const dot = text.indexOf(".")
  const integer = text.slice(sign.length, dot < 0 ? text.length : dot)
  if (integer.length <= 3) return text
  let withMarks = ""
  for (let end = integer.length; end > 0; end -= 3) {
    const start = Math.max(0, end - 3)
    withMarks = end === integer.length ? integer.slice(start, end) : `${integer.slice(start, end)}${mark}${withMarks}`
  }
  return sign + withMarks + (dot < 0 ? "" : text.slice(dot))
}

export const numberWriter = (form: NumberForm, integer: boolean): ((value: number) => string) => {
  const plain = integer ? (value: number) => String(value) : (value: number) => plainFloatText(value, form)
  if (form.groupMark === null && form.decimalMark === ".") return plain
  return (value) => {
    let text = plain(value)
    if (text.includes("e")) return form.decimalMark === "," ? text.replace(".", ",") : text
    if (form.groupMark !== null) text = grouped(text, "\u0000")
    if (form.decimalMark === ",") text = text.replace(".", ",")
    return form.groupMark === null ? text : text.replaceAll("\u0000", form.groupMark)
  }
}
