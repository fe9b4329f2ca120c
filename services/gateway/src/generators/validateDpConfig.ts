import { type DpConfigRequest, type FieldError, generationBounds, InvalidEpsilon, ValidationFailed } from "@synth/contracts"
import { Result } from "effect"
import { epsilonProblem, wholeIn } from "./validateRequest.ts"

export interface ValidDpConfig {
  readonly targetEpsilon: number
  readonly epochs: number
  readonly batchSize: number
}

/**
 * The validator's input rules: epochs and batch_size as a dp-ctgan generation request (defaults included), batch_size
 * also at most `rows` (a batch larger than the data cannot be sampled from it); target_epsilon as the generation
 * request's, refused with the spec's invalid epsilon when the rest is acceptable. `rows` is what training will see:
 * the dataset's rows less those a generation holds out (holdoutSize), the count `assessDpConfiguration` must be given
 * too, so that what it answers is what the training spends.
 */
export const validateDpConfig = (request: DpConfigRequest, rows: number): Result.Result<ValidDpConfig, ValidationFailed | InvalidEpsilon> => {
  const problems: Array<FieldError> = []
  const epochs = request.epochs ?? generationBounds.epochs.default
  const batchSize = request.batch_size ?? generationBounds.batchSize.default
  const epochsProblem = wholeIn("epochs", epochs, generationBounds.epochs.min, generationBounds.epochs.max)
  if (epochsProblem !== null) problems.push(epochsProblem)
  const batchProblem = wholeIn("batch_size", batchSize, generationBounds.batchSize.min, generationBounds.batchSize.max)
  if (batchProblem !== null) problems.push(batchProblem)
  else if (batchSize % generationBounds.pac !== 0) {
    problems.push({ field: "batch_size", message: `must be a multiple of ${generationBounds.pac} (PacGAN packs ${generationBounds.pac} rows per discriminator input)` })
  } else if (batchSize > rows) {
    problems.push({ field: "batch_size", message: `must be at most the dataset's ${rows} rows (got ${batchSize})` })
  }
  const epsilon = epsilonProblem(request.target_epsilon, "target_epsilon is required")
  if (problems.length > 0) {
    if (epsilon !== null) problems.push({ field: "target_epsilon", message: epsilon })
    return Result.fail(new ValidationFailed({ detail: "The differential-privacy configuration has invalid fields; see errors.", errors: problems }))
  }
  if (epsilon !== null) return Result.fail(new InvalidEpsilon({ detail: `Invalid epsilon: ${epsilon}.` }))
  return Result.succeed({ targetEpsilon: request.target_epsilon!, epochs, batchSize })
}
