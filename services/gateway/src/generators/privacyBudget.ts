import { generationBounds, PrivacyBudgetExceeded, protectionBounds, ValidationFailed } from "@synth/contracts"
import { holdoutSize } from "@synth/protect/holdout"
import { assessDpConfiguration } from "@synth/synth/planning"
import { Effect } from "effect"

/** The rows a generation trains on: the dataset's, less those it holds out for the membership-inference attack. */
export const trainingRowsOf = (rows: number, holdoutShare: number) =>
  rows - holdoutSize(rows, { share: holdoutShare, maxRows: protectionBounds.holdoutMaxRows })

/**
 * Whether a dp-ctgan training of `rows` rows can meet its target ε: the validator's test (POST
 * /generators/validate-dp-config), so that a configuration it calls invalid is never trained and one it accepts
 * always is.
 */
export const withinPrivacyBudget = (
  rows: number,
  valid: { readonly epochs: number | null; readonly batchSize: number | null; readonly targetEpsilon: number | null }
) =>
  Effect.gen(function* () {
    const batchSize = valid.batchSize ?? generationBounds.batchSize.default
    if (batchSize > rows) {
      return yield* new ValidationFailed({
        detail: `batch_size ${batchSize} is larger than the dataset's ${rows} rows: dp-ctgan samples each batch from the rows.`,
        errors: [{ field: "batch_size", message: `must be at most the dataset's row count (${rows}) for dp-ctgan` }]
      })
    }
    const assessment = yield* assessDpConfiguration({
      rows,
      epochs: valid.epochs ?? generationBounds.epochs.default,
      batchSize,
      targetEpsilon: valid.targetEpsilon!,
      maxBatchSize: generationBounds.batchSize.max
    })
    if (!assessment.valid) {
      return yield* new PrivacyBudgetExceeded({
        detail: [
          assessment.reason ?? "privacy budget exceeded: the configuration cannot meet target_epsilon.",
          ...assessment.recommendations
        ].join(" "),
        recommended_epochs: assessment.recommendedEpochs,
        recommended_batch_size: assessment.recommendedBatchSize
      })
    }
  })
