import type { EvaluationResults } from "../../evaluationRun.ts"
import { type Bar, barChart, REAL_COLOUR, SYNTHETIC_COLOUR, type Tick } from "../barChart.ts"
import type { CategoricalDistribution, ColumnDistribution, NumericDistribution } from "../columnDistributions.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { edgeLabel, percent } from "../format.ts"
import { section } from "./layout.ts"

/** Bars that are empty on both sides (values below the range, missing ones) are left out. */
const present = (bar: Bar) => bar.real > 0 || bar.synthetic > 0

const numericChart = (distribution: NumericDistribution): string => {
  const { edges, real, synthetic, type } = distribution
  const before = [{ label: `below ${edges.length === 0 ? "range" : edgeLabel(edges[0]!, type)}`, real: real.below, synthetic: synthetic.below }].filter(present)
  const bins = real.bins.map((share, index): Bar => ({
    label: `${edgeLabel(edges[index]!, type)} – ${edgeLabel(edges[index + 1]!, type)}`,
    real: share,
    synthetic: synthetic.bins[index]!
  }))
  const after = [
    { label: edges.length === 0 ? "outside the real range" : `above ${edgeLabel(edges[edges.length - 1]!, type)}`, real: real.above, synthetic: synthetic.above },
    { label: "missing", real: real.missing, synthetic: synthetic.missing }
  ].filter(present)
  const step = Math.max(1, Math.ceil(bins.length / 4))
  // Edge labels every few bins; an end label gives way to the marker of a bar beyond it, a constant column gets one label.
  const edgeTicks: Array<Tick> = bins.length === 1
    ? [{ at: before.length + 0.5, text: edgeLabel(edges[0]!, type) }]
    : edges.flatMap((edge, index) => {
      const shown = index % step === 0 || index === edges.length - 1
      const crowded = (index === 0 && before.length > 0) || (index === edges.length - 1 && after.length > 0)
      return shown && !crowded ? [{ at: before.length + index, text: edgeLabel(edge, type) }] : []
    })
  const markerTicks: Array<Tick> = [
    ...before.map(() => ({ at: 0.5, text: "‹" })),
    ...after.map((bar, index) => ({ at: before.length + bins.length + index + 0.5, text: bar.label === "missing" ? "∅" : "›" }))
  ]
  const ticks = [...edgeTicks, ...markerTicks]
  return barChart({ title: `${distribution.column}: real vs synthetic`, bars: [...before, ...bins, ...after], ticks, slanted: false })
}

const categoricalChart = (distribution: CategoricalDistribution): string => {
  const { categories, real, synthetic } = distribution
  const bars: Array<Bar> = [
    ...categories.map((label, index) => ({ label, real: real.categories[index]!, synthetic: synthetic.categories[index]! })),
    ...[
      { label: "(other)", real: real.other, synthetic: synthetic.other },
      { label: "(missing)", real: real.missing, synthetic: synthetic.missing }
    ].filter(present)
  ]
  const ticks = bars.map((bar, index) => ({ at: index + 0.5, text: bar.label }))
  return barChart({ title: `${distribution.column}: real vs synthetic`, bars, ticks, slanted: true })
}

const columnFigure = (distribution: ColumnDistribution, shapeScore: number | null | undefined): string =>
  `<figure class="distribution"><figcaption><h3>${escapeHtml(distribution.column)}</h3>` +
  `<span class="muted">${escapeHtml(distribution.type)} · shape score ${percent(shapeScore ?? null)}</span></figcaption>` +
  (distribution.kind === "numeric" ? numericChart(distribution) : categoricalChart(distribution)) + `</figure>`

export const legend = `<div class="legend"><span><i style="background:${REAL_COLOUR}"></i>real</span>` +
  `<span><i style="background:${SYNTHETIC_COLOUR}"></i>synthetic</span></div>`

/** One chart per column: the share of rows in each bin or category, real beside synthetic. */
export const distributionsSection = (results: EvaluationResults): string => {
  const shapes = new Map(results.statistical.quality.properties.column_shapes.details.map((detail) => [detail.column, detail.score]))
  const note = `<p class="muted">Shares of rows. Numbers: 20 equal-width bins over the real range (‹ below it, › above it, ∅ missing). ` +
    `Categories: the most frequent real ones, the rest as (other).</p>`
  return section(
    "distributions",
    "Column distributions",
    note + legend + `<div class="grid">${results.distributions.map((distribution) => columnFigure(distribution, shapes.get(distribution.column))).join("")}</div>`
  )
}
