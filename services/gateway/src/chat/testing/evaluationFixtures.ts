/** Test helper: real evaluation results, computed with @synth/evaluation on its reference privacy fixtures. */
import { defaultMlUtilityConfig, evaluationRun, type EvaluationResults, type QuickEvaluation, quickEvaluation } from "@synth/evaluation"
import { synthTableFromArrow, type SynthTable } from "@synth/synth"
import { ingestTable, readTable } from "@synth/tabular"
import { Effect, Either, Stream } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const fixtures = new URL("../../../../../libs/evaluation/reference/fixtures/", import.meta.url)

/** The fixture's file read as an upload is (ingestion's typing), as the evaluation service reads it. */
export const fixtureTable = (name: string): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(fileURLToPath(new URL(name, fixtures)))))), ({ table }) => readTable(table)).pipe(
      Effect.map((table) => Either.getOrThrow(synthTableFromArrow(table)))
    )
  )

/** The raw text of a fixture, to check that no row of it reaches a prompt. */
export const fixtureRows = (name: string): ReadonlyArray<string> =>
  readFileSync(fileURLToPath(new URL(name, fixtures)), "utf8").trim().split("\n").slice(1)

export interface FixtureEvaluations {
  readonly quick: QuickEvaluation
  readonly full: EvaluationResults
}

export const fixtureEvaluations = async (): Promise<FixtureEvaluations> => {
  const [training, synthetic, holdout] = await Promise.all(
    ["privacy_training.csv", "privacy_synthetic.csv", "privacy_holdout.csv"].map(fixtureTable)
  )
  return {
    quick: quickEvaluation(training!, synthetic!, { generator: "ctgan", seed: 0 }),
    full: evaluationRun(training!, synthetic!, holdout!, {
      sampleSize: 1_000,
      seed: 0,
      generator: "ctgan",
      mlUtility: { ...defaultMlUtilityConfig, cross_validation_folds: 2 }
    })
  }
}
