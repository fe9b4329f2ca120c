import { escapeHtml } from "./escapeHtml.ts"
import { decimal, truncate } from "./format.ts"

export interface HeatMapInput {
  readonly title: string
  readonly columns: ReadonlyArray<string>
  /** −1 … 1 (values beyond are drawn as the ends); null is an empty grey cell. */
  readonly cells: ReadonlyArray<ReadonlyArray<number | null>>
}

const LABEL_SPACE = 96
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
  const size = LABEL_SPACE + cell * columns.length + 4
  const showValues = cell >= 28
  const labels = columns.map((name, index) => {
    const centre = LABEL_SPACE + index * cell + cell / 2
    const text = escapeHtml(truncate(name, 14))
    return `<text x="${LABEL_SPACE - 6}" y="${centre + 4}" class="axis" text-anchor="end">${text}<title>${escapeHtml(name)}</title></text>` +
      `<text x="${centre}" y="${LABEL_SPACE - 6}" class="axis" text-anchor="start" transform="rotate(-50 ${centre} ${LABEL_SPACE - 6})">${text}<title>${escapeHtml(name)}</title></text>`
  })
  const squares = cells.flatMap((row, i) =>
    row.map((value, j) => {
      const x = LABEL_SPACE + j * cell
      const y = LABEL_SPACE + i * cell
      const fill = value === null ? "#e5e7eb" : divergingColour(value)
      const tooltip = `${columns[i]} × ${columns[j]}: ${decimal(value, 3)}`
      const label = showValues && value !== null
        ? `<text x="${x + cell / 2}" y="${y + cell / 2 + 4}" class="cell${Math.abs(value) > 0.6 ? " inverse" : ""}" text-anchor="middle">${decimal(value, 2)}</text>`
        : ""
      return `<g><rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${fill}" class="square"/>${label}<title>${escapeHtml(tooltip)}</title></g>`
    })
  )
  return `<svg class="heatmap" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" role="img" aria-label="${escapeHtml(title)}">` +
    `<title>${escapeHtml(title)}</title>${labels.join("")}${squares.join("")}</svg>`
}
