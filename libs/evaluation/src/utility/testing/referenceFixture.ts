import type { SynthColumn, SynthTable } from "@synth/synth"
import { readFileSync } from "node:fs"

// The numbers libs/evaluation/reference/ml_utility_reference.py wrote with scikit-learn and xgboost (see its README).

export interface MetricsCase {
  readonly truth: ReadonlyArray<number>
  readonly predicted: ReadonlyArray<number>
  readonly scores?: ReadonlyArray<number>
  readonly probabilities?: ReadonlyArray<number>
  readonly accuracy?: number
  readonly f1?: number
  readonly roc_auc?: number
  readonly r2?: number
  readonly mae?: number
}

export interface XgboostCase {
  readonly name: string
  readonly objective: "binary" | "multiclass" | "regression"
  /** Column-major: one array per feature. */
  readonly train: ReadonlyArray<ReadonlyArray<number>>
  readonly trainTarget: ReadonlyArray<number>
  readonly test: ReadonlyArray<ReadonlyArray<number>>
  readonly predictions: ReadonlyArray<number>
  /** XGBoost's learner_model_param.base_score, as it prints it ("[4.35E-1]"). */
  readonly baseScore: string
}

type Reference = Readonly<Record<string, number>>

export interface PenguinsTarget {
  readonly target: string
  readonly task: "classification" | "regression"
  readonly classes: ReadonlyArray<string> | null
  readonly trainRows: ReadonlyArray<number>
  readonly testRows: ReadonlyArray<number>
  readonly syntheticRows: ReadonlyArray<number>
  readonly random_forest_trtr: Reference
  readonly random_forest_tstr: Reference
  readonly xgboost_trtr: Reference
  readonly xgboost_tstr: Reference
}

type ColumnJson =
  | { readonly name: string; readonly kind: "categorical"; readonly categories: ReadonlyArray<string>; readonly codes: ReadonlyArray<number> }
  | { readonly name: string; readonly kind: "continuous"; readonly values: ReadonlyArray<number | null> }

interface Fixture {
  readonly metrics: { readonly binary: MetricsCase; readonly multiclass: MetricsCase; readonly regression: MetricsCase }
  readonly xgboost: ReadonlyArray<XgboostCase>
  readonly penguins: {
    readonly real: ReadonlyArray<ColumnJson>
    readonly synthetic: ReadonlyArray<ColumnJson>
    readonly types: Readonly<Record<string, "integer" | "float" | "string">>
    readonly targets: ReadonlyArray<PenguinsTarget>
  }
}

export const referenceFixture: Fixture = JSON.parse(readFileSync(new URL("../../../reference/fixtures/ml_utility.json", import.meta.url), "utf8"))

const tableOf = (columns: ReadonlyArray<ColumnJson>, types: Fixture["penguins"]["types"]): SynthTable => ({
  rowCount: columns[0]!.kind === "categorical" ? columns[0]!.codes.length : columns[0]!.values.length,
  columns: columns.map((column): SynthColumn => {
    if (column.kind === "categorical") return { kind: "categorical", name: column.name, type: "string", categories: column.categories, codes: Int32Array.from(column.codes) }
    const missing = Uint8Array.from(column.values, (value) => (value === null ? 1 : 0))
    return {
      kind: "continuous",
      name: column.name,
      type: types[column.name] === "integer" ? "integer" : "float",
      values: Float64Array.from(column.values, (value) => value ?? 0),
      missing: missing.includes(1) ? missing : null,
      sourceFormat: null
    }
  })
})

export const penguinsReal = (): SynthTable => tableOf(referenceFixture.penguins.real, referenceFixture.penguins.types)
export const penguinsSynthetic = (): SynthTable => tableOf(referenceFixture.penguins.synthetic, referenceFixture.penguins.types)
