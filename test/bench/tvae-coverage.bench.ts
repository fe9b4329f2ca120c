// TVAE's category coverage (issue 27): per categorical column, how many of the real table's categories a sample as
// large as the table keeps and the total variation distance of its category shares from the real ones, plus the
// quality score (libs/synth/src/quality), for the same trained model read two ways: categories drawn from the
// decoder's softmax (`sample`, ours) and by its largest output (`sampleByArgmax`, SDV's reading and ours before).
// SDV's own TVAE on the same CSV, epochs and seed: test/bench/reference/sdv_tvae_coverage.py (in the reference
// environment, test/bench/reference/README.md), which prints the same per-column measures.
//
// Datasets: telco_churn and credit_data from test/fixtures/datasets, and carat50: diamonds' rows whose carat is one of
// its 50 most frequent values, 6,900 of them drawn with a fixed seed, carat written as a label ("c0.30"): a real
// 50-valued categorical, skewed (6 % to 0.5 %) and tied to price and size, like a state column. It is written to
// .cache/bench/carat50.csv, for the SDV script.
//
// Knobs: BENCH_DATASETS (telco_churn,credit_data,carat50), BENCH_EPOCHS (30), BENCH_SEEDS (1,2).
import { makeRandom, qualityReport, type SynthTable } from "@synth/synth"
import { fitTvae } from "@synth/synth/neural/tvae"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { repoRoot } from "../support/server.ts"
import { loadCsv } from "./support/measure.ts"

const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").map((item) => item.trim()).filter(Boolean)
const datasets = list("BENCH_DATASETS", "telco_churn,credit_data,carat50")
const epochList = list("BENCH_EPOCHS", "30").map(Number)
const seeds = list("BENCH_SEEDS", "1,2").map(Number)

const CARAT_VALUES = 50
const CARAT_ROWS = 6_900

/** diamonds.csv cut down to carat50 (see above), as CSV text: the first field of each line is the carat. */
const carat50Csv = async (): Promise<string> => {
  const [header, ...lines] = (await readFile(join(repoRoot, "test/fixtures/datasets/diamonds.csv"), "utf8")).trimEnd().split("\n")
  const carat = (line: string) => line.slice(0, line.indexOf(","))
  const counts = new Map<string, number>()
  for (const line of lines) counts.set(carat(line), (counts.get(carat(line)) ?? 0) + 1)
  const kept = new Set([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, CARAT_VALUES).map(([value]) => value))
  const chosen = lines.filter((line) => kept.has(carat(line)))
  const random = makeRandom(1)
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = random.integer(i + 1)
    ;[chosen[i], chosen[j]] = [chosen[j]!, chosen[i]!]
  }
  const label = (line: string) => `"c${Number(carat(line)).toFixed(2)}"${line.slice(line.indexOf(","))}`
  return [header, ...chosen.slice(0, CARAT_ROWS).map(label)].join("\n") + "\n"
}

/** Each categorical column's category shares by label (missing as its own label). */
const categoryShares = (table: SynthTable): Map<string, Map<string, number>> =>
  new Map(table.columns.flatMap((column) => {
    if (column.kind !== "categorical") return []
    const shares = new Map<string, number>()
    for (const code of column.codes) {
      const label = code < 0 ? "<missing>" : column.categories[code]!
      shares.set(label, (shares.get(label) ?? 0) + 1 / table.rowCount)
    }
    return [[column.name, shares]]
  }))

interface ColumnCoverage {
  /** Real categories that occur in the sample, of all real categories. */
  readonly kept: number
  readonly real: number
  readonly tvd: number
  /** The sample's most frequent category, its share there and in the real table. */
  readonly top: string
  readonly topShare: number
  readonly topRealShare: number
}

const coverage = (real: SynthTable, sample: SynthTable): Record<string, ColumnCoverage> => {
  const sampled = categoryShares(sample)
  return Object.fromEntries([...categoryShares(real)].map(([name, realShares]) => {
    const shares = sampled.get(name) ?? new Map<string, number>()
    const labels = new Set([...realShares.keys(), ...shares.keys()])
    const tvd = [...labels].reduce((sum, label) => sum + Math.abs((realShares.get(label) ?? 0) - (shares.get(label) ?? 0)), 0) / 2
    const [top, topShare] = [...shares].sort((a, b) => b[1] - a[1])[0] ?? ["", 0]
    const kept = [...realShares.keys()].filter((label) => (shares.get(label) ?? 0) > 0).length
    return [name, { kept, real: realShares.size, tvd: +tvd.toFixed(4), top, topShare: +topShare.toFixed(4), topRealShare: +(realShares.get(top) ?? 0).toFixed(4) }]
  }))
}

const summaryRows: Array<string> = []
const report = (dataset: string, epochs: number, seed: number, reading: string, real: SynthTable, sample: SynthTable, extra: object) => {
  const columns = coverage(real, sample)
  const quality = qualityReport(real, sample, { seed })
  console.log(JSON.stringify({ bench: "tvae-coverage", dataset, epochs, seed, reading, quality: quality.score, columnShapes: quality.properties.column_shapes.score, pairTrends: quality.properties.column_pair_trends.score, ...extra, columns }))
  const kept = Object.values(columns).reduce((sum, column) => sum + column.kept, 0)
  const total = Object.values(columns).reduce((sum, column) => sum + column.real, 0)
  const meanTvd = Object.values(columns).reduce((sum, column) => sum + column.tvd, 0) / Object.keys(columns).length
  const worst = Object.entries(columns).sort((a, b) => b[1].tvd - a[1].tvd)[0]!
  summaryRows.push(
    `| ${dataset} | ${epochs} | ${seed} | ${reading} | ${kept}/${total} | ${meanTvd.toFixed(3)} | ${worst[0]} ${worst[1].kept}/${worst[1].real}, ${worst[1].tvd.toFixed(3)} ` +
      `(${worst[1].top} ${(100 * worst[1].topShare).toFixed(0)} %, real ${(100 * worst[1].topRealShare).toFixed(0)} %) | ${quality.score?.toFixed(3) ?? ""} |`
  )
}

for (const dataset of datasets) {
  const data = dataset === "carat50" ? join(repoRoot, ".cache/bench/carat50.csv") : join(repoRoot, "test/fixtures/datasets", `${dataset}.csv`)
  if (dataset === "carat50") {
    await mkdir(join(repoRoot, ".cache/bench"), { recursive: true })
    await writeFile(data, await carat50Csv())
  }
  const real = await loadCsv(data)
  for (const epochs of epochList) {
    for (const seed of seeds) {
      console.error(`${dataset}, ${epochs} epochs, seed ${seed}`)
      const started = performance.now()
      const model = await fitTvae(real, { seed, epochs, batchSize: 500 })
      const fitSeconds = +((performance.now() - started) / 1000).toFixed(1)
      report(dataset, epochs, seed, "drawn", real, model.sample(real.rowCount, seed + 1), { fitSeconds })
      report(dataset, epochs, seed, "argmax", real, model.sampleByArgmax(real.rowCount, seed + 1), { fitSeconds })
      model.dispose()
    }
  }
}

console.error("\n| dataset | epochs | seed | reading | categories kept | mean TVD | worst column: kept, TVD (its top category) | quality |")
console.error("|---|---|---|---|---|---|---|---|")
for (const row of summaryRows) console.error(row)
process.exit(0)
