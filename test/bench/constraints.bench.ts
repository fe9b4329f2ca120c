// What constraints cost a synthetic table's quality (issue 26). Each dataset gets constraints its real rows obey,
// and each generator is trained and sampled through the service's own pipeline (protections with their defaults,
// nothing faked, then sampleWithRules) three ways:
//   none       — no constraints: the plain output, and how many of its rows break the constraints anyway;
//   rejection  — inequalities, ranges and positives met by rejection alone (no transform): rows that break one are
//                drawn again (fixed combinations keep their joint category: the service has no other way to meet them);
//   transform  — as the service does it: reversible transforms, then the check after the protections.
// Reported per run: SDMetrics' quality score (libs/synth/src/quality, real vs synthetic), its two properties, the
// constraints broken per output row (a row breaking two counts twice), and draws per output row.
//
// Knobs: BENCH_SEEDS (1,2): seeds, each a training and a sample; BENCH_GENERATORS (gaussian_copula,ctgan);
// BENCH_EPOCHS (30): neural epochs; BENCH_DATASETS (telco_churn,credit_data,penguins,diamonds); BENCH_ROWS (5000):
// rows sampled (the table's own row count when smaller); BENCH_DIAMONDS_ROWS (10000): diamonds rows used;
// BENCH_EPSILON (5): dp-ctgan's target epsilon (the API requires one; 5 is "balanced" in docs/generation.md).
import { defaultFakers, prepareTraining, sampleWithRules } from "@synth/protect"
import {
  constrainedModel,
  type Constraint,
  constraintBreaks,
  fitConstraintTransforms,
  fixedCombinationGroups,
  type GeneratorKind,
  qualityReport,
  type SynthTable,
  type TrainedModel,
  trainModel,
  validateRulesOnTable
} from "@synth/synth"
import { Result } from "effect"
import { loadCsv, median } from "./support/measure.ts"

const seeds = (process.env.BENCH_SEEDS ?? "1,2").split(",").map(Number)
const generators = (process.env.BENCH_GENERATORS ?? "gaussian_copula,ctgan").split(",") as Array<GeneratorKind>
const epochs = Number(process.env.BENCH_EPOCHS ?? 30)
const datasets = (process.env.BENCH_DATASETS ?? "telco_churn,credit_data,penguins,diamonds").split(",")
const sampleRows = Number(process.env.BENCH_ROWS ?? 5_000)
const diamondsRows = Number(process.env.BENCH_DIAMONDS_ROWS ?? 10_000)
const targetEpsilon = Number(process.env.BENCH_EPSILON ?? 5)

/** Rules each dataset's real rows obey (validated below, as the worker does). */
const constraintsOf: Record<string, ReadonlyArray<unknown>> = {
  telco_churn: [
    { type: "inequality", low: "monthly_charges", high: "total_charges" },
    // "No internet service" in every internet add-on exactly when internet_service is "No"; likewise phone lines.
    { type: "fixed_combinations", columns: ["internet_service", "online_security", "online_backup", "device_protection", "tech_support", "streaming_tv", "streaming_movies"] },
    { type: "fixed_combinations", columns: ["phone_service", "multiple_lines"] },
    { type: "positive", column: "tenure" }
  ],
  credit_data: [
    { type: "inequality", low: "Amount", high: "Price" },
    { type: "range", column: "Age", min: 18, max: 70 },
    { type: "positive", column: "Income" }
  ],
  penguins: [
    { type: "fixed_combinations", columns: ["species", "island"] },
    { type: "positive", column: "body_mass_g", strict: true },
    { type: "range", column: "bill_depth_mm", min: 13, max: 21.5 }
  ],
  // The whole table has 2 rows with z above x and y (data errors the validation names); its first rows have none.
  diamonds: [
    { type: "range", column: "depth", min: 40, max: 80 },
    { type: "positive", column: "z" },
    { type: "inequality", low: "z", high: "x" },
    { type: "inequality", low: "z", high: "y" }
  ]
}

const firstRows = (table: SynthTable, rows: number): SynthTable =>
  table.rowCount <= rows ? table : {
    rowCount: rows,
    columns: table.columns.map((column) =>
      column.kind === "categorical"
        ? { ...column, codes: column.codes.slice(0, rows) }
        : { ...column, values: column.values.slice(0, rows), missing: column.missing?.slice(0, rows) ?? null })
  }

/** Labels of a row in the named columns (null for missing), as one key. */
const combinationKeys = (table: SynthTable, names: ReadonlyArray<string>) => {
  const columns = names.map((name) => table.columns.find((column) => column.name === name)!)
  return Array.from({ length: table.rowCount }, (_, row) =>
    JSON.stringify(columns.map((column) => column.kind === "categorical" && column.codes[row]! >= 0 ? column.categories[column.codes[row]!] : null)))
}

/**
 * Rows breaking each constraint: constraintBreaks for all but fixed combinations, which the service meets by
 * construction and never checks row by row; here they are checked against the real table's combinations.
 */
const breaksOf = (output: SynthTable, real: SynthTable, constraints: ReadonlyArray<Constraint>) => {
  const counted = constraintBreaks(output, constraints)
  return constraints.map((constraint, index) => {
    if (constraint.type !== "fixed_combinations") return counted[index]!
    const seen = new Set(combinationKeys(real, constraint.columns))
    return combinationKeys(output, constraint.columns).filter((key) => !seen.has(key)).length
  })
}

const nothingFound = { findings: [], identifiers: [], quasi_identifiers: [] }
const round = (value: number | null) => (value === null ? null : +value.toFixed(4))
const scored = (values: ReadonlyArray<number>) => {
  const finite = values.filter(Number.isFinite)
  return finite.length === 0 ? null : round(median(finite))
}

type Variant = "none" | "rejection" | "transform"

const run = async (name: string, real: SynthTable, generator: GeneratorKind, seed: number, variant: Variant) => {
  const validated = validateRulesOnTable({ constraints: constraintsOf[name] }, real)
  if (!validated.ok) throw new Error(`${name}: ${validated.problems.map((problem) => problem.message).join("; ")}`)
  const rules = validated.rules
  const applied = variant === "none" ? { constraints: [], conditions: [] } : rules
  const prepared = prepareTraining({
    table: real,
    scan: nothingFound,
    overrides: {},
    settings: { rareCategoryThreshold: 5, valueProtection: true, rareCategoryProtection: true, similarityFilter: true, holdoutShare: 0.1 },
    seed,
    differentiallyPrivate: generator === "dp-ctgan",
    protectTogether: fixedCombinationGroups(applied.constraints)
  }, defaultFakers)
  const transformed = variant === "transform"
    ? rules.constraints
    : variant === "rejection"
    ? rules.constraints.filter((constraint) => constraint.type === "fixed_combinations")
    : []
  const transforms = fitConstraintTransforms(transformed, prepared.learned)
  const started = performance.now()
  const trained = Result.getOrThrow(await trainModel(generator, transforms.forward(prepared.learned), {
    seed,
    epochs,
    batchSize: 500,
    targetEpsilon: generator === "dp-ctgan" ? targetEpsilon : null
  }))
  const fitMs = performance.now() - started
  let drawn = 0
  const counting: TrainedModel = { ...trained, sample: (count, sampleSeed, onProgress) => ((drawn += count), trained.sample(count, sampleSeed, onProgress)) }
  const rows = Math.min(sampleRows, real.rowCount)
  const sampled = sampleWithRules(prepared.plan, constrainedModel(counting, transforms), prepared.filters, defaultFakers, rows, seed + 100, applied)
  // A model that cannot meet the rules within the draw budget is a result too: the service fails such a job with
  // this message (conditions_unmet).
  if (!sampled.ok) return { refused: sampled.refusal.message, drawsPerRow: drawn / Math.min(sampleRows, real.rowCount) }
  const output = sampled.sample.table
  const report = qualityReport(real, output, { seed })
  const breaking = breaksOf(output, real, rules.constraints)
  return {
    score: report.score,
    shapes: report.properties.column_shapes.score,
    pairs: report.properties.column_pair_trends.score,
    breakingShare: breaking.reduce((sum, rows) => sum + rows, 0) / rows,
    breaking,
    drawsPerRow: drawn / rows,
    fitMs: Math.round(fitMs)
  }
}

for (const name of datasets) {
  const loaded = await loadCsv(`test/fixtures/datasets/${name}.csv`)
  const real = name === "diamonds" ? firstRows(loaded, diamondsRows) : loaded
  for (const generator of generators) {
    const scores: Record<Variant, Array<number>> = { none: [], rejection: [], transform: [] }
    for (const seed of seeds) {
      for (const variant of ["none", "rejection", "transform"] as const) {
        const result = await run(name, real, generator, seed, variant)
        if ("refused" in result) {
          scores[variant].push(Number.NaN)
          console.log(JSON.stringify({ bench: `constraints ${name} ${generator} ${variant}`, seed, epochs, refused: result.refused, drawsPerRow: round(result.drawsPerRow) }))
          continue
        }
        scores[variant].push(result.score ?? Number.NaN)
        console.log(JSON.stringify({
          bench: `constraints ${name} ${generator} ${variant}`,
          seed,
          rows: Math.min(sampleRows, real.rowCount),
          epochs: generator === "gaussian_copula" ? null : epochs,
          score: round(result.score),
          columnShapes: round(result.shapes),
          pairTrends: round(result.pairs),
          breaksPerRow: round(result.breakingShare),
          breaksPerConstraint: result.breaking,
          drawsPerRow: round(result.drawsPerRow),
          fitMs: result.fitMs
        }))
      }
    }
    console.log(JSON.stringify({
      bench: `constraints ${name} ${generator} summary`,
      // Over the runs that produced an output (a refused run has no score).
      medianScore: { none: scored(scores.none), rejection: scored(scores.rejection), transform: scored(scores.transform) }
    }))
  }
}
