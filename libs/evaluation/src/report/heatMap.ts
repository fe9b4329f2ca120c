import { escapeHtml } from "./escapeHtml.ts"
import { decimal, truncate } from "./format.ts"

export interface HeatMapInput {
  readonly title: string
  readonly columns: ReadonlyArray<string>
  /** −1 … 1 (values beyond are drawn as the ends); null is an empty grey cell. */
  readonly cells: ReadonlyArray<ReadonlyArray<number | null>>
}

/** Column labels are cut to this many characters (the full name is in their tooltip). */
const LABEL_CHARACTERS = 14
/** About the width of one character of the 10 px axis font. */
const CHARACTER_WIDTH = 6
/** The top labels lean back 50°: cos 50° of their length reaches right of their column. */
const LEAN = Math.cos((50 * Math.PI) / 180)
const NEGATIVE = [37, 99, 235] as const
const POSITIVE = [220, 38, 38] as const

/** White at 0, blue towards −1, red towards +1. */
export const divergingColour = (value: number): string => {
  const strength = Math.min(1, Math.abs(value))
  const end = value < 0 ? NEGATIVE : POSITIVE
  const channel = (index: number) => Math.round(255 + (end[index]! - 255) * strength)
  return `rgb(${channel(0)},${channel(1)},${channel(2)})`
}

/** A square grid of values as an inline SVG, labelled by column, each cell with its value (and a tooltip). */
export const heatMap = ({ cells, columns, title }: HeatMapInput): string => {
  const cell = Math.max(14, Math.min(40, Math.floor(300 / Math.max(1, columns.length))))
  // Room for the longest label, not for the longest possible one: short names leave no empty band above the grid.
  const labelWidth = CHARACTER_WIDTH * Math.max(1, ...columns.map((name) => truncate(name, LABEL_CHARACTERS).length))
  const labelSpace = labelWidth + 12
  const grid = cell * columns.length
  const width = labelSpace + grid + Math.max(4, Math.ceil(labelWidth * LEAN - cell / 2) + 4)
  const height = labelSpace + grid + 4
  const showValues = cell >= 28
  const labels = columns.map((name, index) => {
    const centre = labelSpace + index * cell + cell / 2
    const text = escapeHtml(truncate(name, LABEL_CHARACTERS))
    return `<text x="${labelSpace - 6}" y="${centre + 4}" class="axis" text-anchor="end">${text}<title>${escapeHtml(name)}</title></text>` +
      `<text x="${centre}" y="${labelSpace - 6}" class="axis" text-anchor="start" transform="rotate(-50 ${centre} ${labelSpace - 6})">${text}<title>${escapeHtml(name)}</title></text>`
  })
  const squares = cells.flatMap((row, i) =>
    row.map((value, j) => {
      const x = labelSpace + j * cell
      const y = labelSpace + i * cell
      const fill = value === null ? "#e5e7eb" : divergingColour(value)
      const tooltip = `${columns[i]} × ${columns[j]}: ${decimal(value, 3)}`
      const label = showValues && value !== null
        ? `<text x="${x + cell / 2}" y="${y + cell / 2 + 4}" class="cell${Math.abs(value) > 0.6 ? " inverse" : ""}" text-anchor="middle">${decimal(value, 2)}</text>`
        : ""
      return `<g><rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${fill}" class="square"/>${label}<title>${escapeHtml(tooltip)}</title></g>`
    })
  )
  return `<svg class="heatmap" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}">` +
    `<title>${escapeHtml(title)}</title>${labels.join("")}${squares.join("")}</svg>`
}
