// The protections of issue 21 measured on the sample datasets and on the customer table of test/fixtures/privacy, per
// generator, side by side in one run: the quality score (our SDMetrics-equivalent QualityReport, on the columns each
// output learned, against the whole real table) with the protections on (the service's defaults: fakes, value and
// rare-category protection, similarity filter, 10 % holdout) and off (every column learned as it is, every row
// trained on), and, with them on, the membership-inference attack's AUC on the held-out rows with its DeLong
// interval, the per-column disclosure of personal and quasi-identifier columns, the privacy verdict and the
// similarity filter's count. Each run goes through libs/protect exactly as a generation job does.
//
// Knobs: BENCH_PRIVACY_DATASETS (penguins,credit_data,telco_churn,diamonds,customers), BENCH_PRIVACY_MODELS
// (gaussian_copula,ctgan,tvae,dp-ctgan), BENCH_PRIVACY_EPOCHS (30), BENCH_PRIVACY_SEEDS (1,2),
// BENCH_PRIVACY_ROWS (10000: larger tables are sampled down to this many rows first), BENCH_PRIVACY_EPSILON (5).
import { privacyReport, splitHoldout } from "@synth/evaluation"
import { sampleScanInput, scanColumns } from "@synth/pii"
import { defaultFakers, holdoutRows, prepareTraining, sampleProtected } from "@synth/protect"
import { ingestTable, readTable } from "@synth/tabular"
import { type GeneratorKind, makeRandom, qualityReport, synthTableFromArrow, type SynthTable, trainModel } from "@synth/synth"
import { Effect, Result, Stream } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { repoRoot } from "../support/server.ts"

const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").map((item) => item.trim()).filter(Boolean)
const datasets = list("BENCH_PRIVACY_DATASETS", "penguins,credit_data,telco_churn,diamonds,customers")
const models = list("BENCH_PRIVACY_MODELS", "gaussian_copula,ctgan,tvae,dp-ctgan") as Array<GeneratorKind>
const epochs = Number(process.env.BENCH_PRIVACY_EPOCHS ?? 30)
const seeds = list("BENCH_PRIVACY_SEEDS", "1,2").map(Number)
const maxRows = Number(process.env.BENCH_PRIVACY_ROWS ?? 10_000)
const epsilon = Number(process.env.BENCH_PRIVACY_EPSILON ?? 5)

const fileOf = (name: string) =>
  join(repoRoot, "test", "fixtures", name === "customers" ? "privacy" : "datasets", `${name}.csv`)

const load = (name: string) =>
  Effect.runPromise(Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(fileOf(name))))), ({ table }) => readTable(table)))

/** A seeded sample of `rows` rows, in their order (the whole table when it is no longer). */
const sampled = (table: SynthTable, rows: number): SynthTable => {
  if (table.rowCount <= rows) return table
  const random = makeRandom(99)
  const picked = Array.from({ length: table.rowCount }, (_, row) => row)
  for (let index = 0; index < rows; index++) {
    const other = index + random.integer(table.rowCount - index)
    ;[picked[index], picked[other]] = [picked[other]!, picked[index]!]
  }
  const chosen = Uint32Array.from(picked.slice(0, rows)).sort()
  return {
    rowCount: rows,
    columns: table.columns.map((column) =>
      column.kind === "categorical"
        ? { ...column, codes: Int32Array.from(chosen, (row) => column.codes[row]!) }
        : { ...column, values: Float64Array.from(chosen, (row) => column.values[row]!), missing: column.missing === null ? null : Uint8Array.from(chosen, (row) => column.missing![row]!) }
    )
  }
}

const only = (table: SynthTable, names: ReadonlySet<string>): SynthTable => ({ rowCount: table.rowCount, columns: table.columns.filter((column) => names.has(column.name)) })

const protectionsOff = { rareCategoryThreshold: 5, valueProtection: false, rareCategoryProtection: false, similarityFilter: false, holdoutShare: 0 }
const protectionsOn = { rareCategoryThreshold: 5, valueProtection: true, rareCategoryProtection: true, similarityFilter: true, holdoutShare: 0.1 }

const round = (value: number | null | undefined, digits = 3) => (value === null || value === undefined ? null : Number(value.toFixed(digits)))

for (const dataset of datasets) {
  const arrow = await load(dataset)
  const full = Result.getOrThrow(synthTableFromArrow(arrow))
  const real = sampled(full, maxRows)
  const scan = scanColumns(sampleScanInput(arrow, 10_000))
  for (const model of models) {
    for (const seed of seeds) {
      // Quality is scored on the columns the protected run learns (both runs have them): a faked column has no
      // real value to match, by design.
      const run = async (on: boolean, scored: ReadonlySet<string> | null) => {
        const started = performance.now()
        const prepared = prepareTraining({
          table: real,
          scan,
          overrides: on ? {} : Object.fromEntries(real.columns.map((column) => [column.name, "keep" as const])),
          settings: on ? protectionsOn : protectionsOff,
          seed,
          differentiallyPrivate: model === "dp-ctgan"
        }, defaultFakers)
        const trained = prepared.learned.columns.length === 0
          ? null
          : Result.getOrThrow(await trainModel(model, prepared.learned, { seed, epochs, batchSize: 500, targetEpsilon: model === "dp-ctgan" ? epsilon : null, threads: 2 }))
        const output = sampleProtected(prepared.plan, trained, prepared.filters, defaultFakers, real.rowCount, seed + 1000)
        const learned = scored ?? new Set(prepared.learned.columns.map((column) => column.name))
        const quality = qualityReport(only(real, learned), only(output.table, learned)).score
        return { prepared, output, quality, seconds: (performance.now() - started) / 1000 }
      }
      const on = await run(true, null)
      const off = await run(false, new Set(on.prepared.learned.columns.map((column) => column.name)))
      const columns = on.prepared.columns.map(({ handling, name, piiType, role }) => ({ name, role, handling, piiType }))
      const { heldOut, members } = splitHoldout(real, holdoutRows(real.rowCount, on.prepared.plan.holdout, seed))
      const privacy = privacyReport(members, on.output.table, heldOut, { seed, maxRows: 5_000, columns, rareThreshold: 5 })
      const disclosure = (privacy.disclosure ?? []).filter((column) => column.inOutput).map((column) => ({
        column: column.name,
        role: column.role,
        handling: column.handling,
        realShare: round(column.realShare),
        rareShare: round(column.rareShare)
      }))
      console.log(JSON.stringify({
        bench: "privacy",
        dataset,
        model,
        seed,
        rows: real.rowCount,
        epochs: model === "gaussian_copula" ? null : epochs,
        qualityOff: round(off.quality),
        qualityOn: round(on.quality),
        cost: round((off.quality ?? 0) - (on.quality ?? 0)),
        secondsOff: round(off.seconds, 1),
        secondsOn: round(on.seconds, 1),
        faked: columns.filter((column) => column.handling === "fake").map((column) => column.name),
        filteredRows: on.output.filteredRows,
        copiesKept: on.output.copiesKept,
        redrawnValues: on.prepared.counts.redrawnValues,
        rareCategoryRows: on.prepared.counts.rareCategoryRows,
        auc: round(privacy.membershipInference?.auc),
        aucInterval: privacy.membershipInference?.interval === null || privacy.membershipInference === null
          ? null
          : [round(privacy.membershipInference.interval.low), round(privacy.membershipInference.interval.high)],
        safeToShare: privacy.verdict.safeToShare,
        failing: privacy.verdict.failing,
        disclosure
      }))
    }
  }
}
