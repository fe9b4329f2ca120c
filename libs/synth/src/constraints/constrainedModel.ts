import type { TrainedModel } from "../models/trainModel.ts"
import { readStoredConstraints } from "./storedConstraints.ts"
import type { Constraint } from "./rules.ts"
import { type ConstraintTransforms, constraintTransformsFromJSON, type TransformsJson } from "./transform/constraintTransforms.ts"

/**
 * A generator with constraints, as stored: the constraints themselves (every later sample obeys them), the
 * transforms fitted at training, and the model trained on the transformed table (null when nothing was learned, every
 * column faked). The protected artifact holds this where it would hold the model; a generator without constraints
 * stores its model as before.
 */
export const constrainedFormat = "synth.constrained"

export interface ConstrainedArtifact {
  readonly format: typeof constrainedFormat
  readonly formatVersion: 1
  readonly constraints: ReadonlyArray<Constraint>
  readonly transforms: TransformsJson
  readonly model: unknown
}

/**
 * The model seen from outside: it samples the learned table's columns (the transforms reversed), and steers towards
 * categories of the columns the model learned as they are.
 */
export const constrainedModel = (model: TrainedModel, transforms: ConstraintTransforms): TrainedModel => {
  const steer = model.sampleConditioned
  return {
    format: model.format,
    formatVersion: model.formatVersion,
    sample: (rows, seed, onProgress) => transforms.reverse(model.sample(rows, seed, onProgress)),
    ...(steer === undefined ? {} : {
      sampleConditioned: (rows, seed, categories, onProgress) => {
        const kept = categories.filter((category) => transforms.keepsColumn(category.column))
        return transforms.reverse(kept.length === 0 ? model.sample(rows, seed, onProgress) : steer(rows, seed, kept, onProgress))
      }
    }),
    toJSON: model.toJSON,
    ...(model.privacy === undefined ? {} : { privacy: model.privacy })
  }
}

export const constrainedArtifact = (
  constraints: ReadonlyArray<Constraint>,
  transforms: ConstraintTransforms,
  model: TrainedModel | null
): ConstrainedArtifact => ({
  format: constrainedFormat,
  formatVersion: 1,
  constraints,
  transforms: transforms.toJSON(),
  model: model === null ? null : model.toJSON()
})

export const isConstrainedArtifact = (json: unknown): boolean =>
  typeof json === "object" && json !== null && (json as { format?: unknown }).format === constrainedFormat

export type ReadConstrained =
  | { readonly ok: true; readonly constraints: ReadonlyArray<Constraint>; readonly transforms: ConstraintTransforms; readonly model: unknown }
  | { readonly ok: false; readonly message: string }

/** A stored constrained artifact's parts; the inner model is left for loadModel. */
export const readConstrainedArtifact = (json: unknown): ReadConstrained => {
  const stored = json as Partial<ConstrainedArtifact>
  if (!isConstrainedArtifact(json) || stored.formatVersion !== 1) return { ok: false, message: "it is not a version 1 constrained model" }
  const constraints = readStoredConstraints(stored.constraints)
  if ("error" in constraints) return { ok: false, message: constraints.error }
  const transforms = constraintTransformsFromJSON(stored.transforms)
  if ("error" in transforms) return { ok: false, message: transforms.error }
  return { ok: true, constraints: constraints.constraints, transforms, model: stored.model ?? null }
}
