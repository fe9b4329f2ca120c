import { escapeHtml } from "./escapeHtml.ts"
import { percent, truncate } from "./format.ts"

export interface Bar {
  /** What the bar group stands for, in its tooltip. */
  readonly label: string
  readonly real: number
  readonly synthetic: number
}

/** An axis label at `at` group widths from the left (0: left of the first group, n: right of the last). */
export interface Tick {
  readonly at: number
  readonly text: string
}

export interface BarChartInput {
  readonly title: string
  readonly bars: ReadonlyArray<Bar>
  readonly ticks: ReadonlyArray<Tick>
  /** Slanted tick labels, for category names. */
  readonly slanted: boolean
}

export const REAL_COLOUR = "#2563eb"
export const SYNTHETIC_COLOUR = "#f59e0b"

const WIDTH = 560
const LEFT = 44
const RIGHT = 32
const TOP = 12
const PLOT_HEIGHT = 170

const niceMaximum = (largest: number): number => {
  const steps = [0.05, 0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.8, 1]
  return steps.find((step) => largest <= step) ?? 1
}

/** Whole percentages where they are whole (25 %), one decimal otherwise (2.5 %). */
const axisPercent = (share: number) => percent(share, Number.isInteger(Math.round(share * 1e6) / 1e4) ? 0 : 1)

const round = (value: number) => Math.round(value * 100) / 100

/** Real and synthetic shares side by side per group, as an inline SVG with a share axis and a tooltip per bar. */
export const barChart = ({ bars, slanted, ticks, title }: BarChartInput): string => {
  // Slanted labels need room below the plot in proportion to the longest (they are cut at 18 characters).
  const longest = Math.max(0, ...ticks.map((tick) => Math.min(18, tick.text.length)))
  const bottom = slanted ? 24 + Math.round(longest * 4.2) : 28
  const height = TOP + PLOT_HEIGHT + bottom
  const plotWidth = WIDTH - LEFT - RIGHT
  const groupWidth = plotWidth / Math.max(1, bars.length)
  const barWidth = Math.max(1, groupWidth * 0.4)
  const maximum = niceMaximum(Math.max(0, ...bars.flatMap((bar) => [bar.real, bar.synthetic])))
  const y = (share: number) => TOP + PLOT_HEIGHT - (share / maximum) * PLOT_HEIGHT
  const grid = [0, 0.25, 0.5, 0.75, 1].map((fraction) => {
    const at = round(y(maximum * fraction))
    return `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${at}" y2="${at}" class="grid"/>` +
      `<text x="${LEFT - 6}" y="${round(at + 4)}" class="axis" text-anchor="end">${axisPercent(maximum * fraction)}</text>`
  })
  const rects = bars.map((bar, index) => {
    const x = LEFT + index * groupWidth + groupWidth * 0.1
    const rect = (share: number, offset: number, colour: string, side: string) =>
      `<rect x="${round(x + offset)}" y="${round(y(share))}" width="${round(barWidth)}" height="${round(TOP + PLOT_HEIGHT - y(share))}" fill="${colour}">` +
      `<title>${escapeHtml(`${bar.label}: ${side} ${percent(share)}`)}</title></rect>`
    return rect(bar.real, 0, REAL_COLOUR, "real") + rect(bar.synthetic, barWidth, SYNTHETIC_COLOUR, "synthetic")
  })
  const tickLabels = ticks.map((tick) => {
    const x = round(LEFT + tick.at * groupWidth)
    const baseline = TOP + PLOT_HEIGHT + 16
    return slanted
      ? `<text x="${x}" y="${baseline}" class="axis" text-anchor="end" transform="rotate(-40 ${x} ${baseline})">${escapeHtml(truncate(tick.text, 18))}</text>`
      : `<text x="${x}" y="${baseline}" class="axis" text-anchor="middle">${escapeHtml(tick.text)}</text>`
  })
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="${escapeHtml(title)}">` +
    `<title>${escapeHtml(title)}</title>${grid.join("")}${rects.join("")}` +
    `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${TOP + PLOT_HEIGHT}" y2="${TOP + PLOT_HEIGHT}" class="baseline"/>${tickLabels.join("")}</svg>`
}
