/** Test helper: real evaluation results, computed with @synth/evaluation on its reference privacy fixtures. */
import {
  defaultMlUtilityConfig,
  evaluationRun,
  type EvaluationResults,
  type GeneratorColumn,
  type QuickEvaluation,
  quickEvaluation
} from "@synth/evaluation"
import { synthTableFromArrow, type SynthTable } from "@synth/synth"
import { ingestTable, readTable } from "@synth/tabular"
import { Effect, Result, Stream } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const fixtures = new URL("../../../../../libs/evaluation/reference/fixtures/", import.meta.url)

/** The fixture's file read as an upload is (ingestion's typing), as the evaluation service reads it. */
export const fixtureTable = (name: string): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(fileURLToPath(new URL(name, fixtures)))))), ({ table }) => readTable(table)).pipe(
      Effect.map((table) => Result.getOrThrow(synthTableFromArrow(table)))
    )
  )

/** The raw text of a fixture, to check that no row of it reaches a prompt. */
export const fixtureRows = (name: string): ReadonlyArray<string> =>
  readFileSync(fileURLToPath(new URL(name, fixtures)), "utf8").trim().split("\n").slice(1)

export interface FixtureEvaluations {
  readonly quick: QuickEvaluation
  /** A run without column roles (a generator from before them): the disclosure checks could not run. */
  readonly full: EvaluationResults
  /** A run with roles whose every privacy check passes: fresh rows of the population as the output. */
  readonly safe: EvaluationResults
  /** The same output with city declared a direct identifier kept as it is: every city is a real one. */
  readonly disclosing: EvaluationResults
}

const roles = (city: GeneratorColumn["role"]): ReadonlyArray<GeneratorColumn> => [
  { name: "age", role: "data", handling: "keep", piiType: null },
  { name: "income", role: "data", handling: "keep", piiType: null },
  { name: "joined", role: "data", handling: "keep", piiType: null },
  { name: "city", role: city, handling: "keep", piiType: null },
  { name: "member", role: "data", handling: "keep", piiType: null },
  { name: "version", role: "data", handling: "keep", piiType: null }
]

/** Every tenth training row held out, as a generation job holds rows out. */
const heldOutRows = Uint32Array.from({ length: 40 }, (_, index) => index * 10)

export const fixtureEvaluations = async (): Promise<FixtureEvaluations> => {
  const [training, synthetic, holdout] = await Promise.all(
    ["privacy_training.csv", "privacy_synthetic.csv", "privacy_holdout.csv"].map(fixtureTable)
  )
  // The holdout file: 200 rows drawn from the training rows' population, never seen: what a generator that learned
  // the population and no row of it would output.
  const fresh = (city: GeneratorColumn["role"]) =>
    evaluationRun(training!, holdout!, null, {
      sampleSize: 1_000,
      seed: 0,
      mlUtility: null,
      generatorPrivacy: { columns: roles(city), rareThreshold: 5, heldOutRows }
    })
  return {
    safe: fresh("quasi_identifier"),
    disclosing: fresh("direct_identifier"),
    quick: quickEvaluation(training!, synthetic!, { generator: "ctgan", seed: 0 }),
    full: evaluationRun(training!, synthetic!, holdout!, {
      sampleSize: 1_000,
      seed: 0,
      generator: "ctgan",
      mlUtility: { ...defaultMlUtilityConfig, cross_validation_folds: 2 }
    })
  }
}
