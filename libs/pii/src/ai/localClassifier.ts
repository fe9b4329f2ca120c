import type { AiColumnVerdict, ScanInput } from "../types.ts"
import { type ClassifierArtifact, classifierClasses, modelOf } from "./artifact.ts"
import { columnFeatures, featureWidth } from "./features.ts"
import artifact from "./model/local-classifier.v2.json" with { type: "json" }
import { predictProbabilities, type SoftmaxModel } from "./softmaxRegression.ts"

const stored = artifact as ClassifierArtifact

let loaded: SoftmaxModel | undefined
/** The shipped model, decoded on first use. */
const shippedModel = (): SoftmaxModel => {
  if (loaded !== undefined) return loaded
  if (stored.featureWidth !== featureWidth) {
    // The features changed without retraining: the weights would be read against the wrong inputs.
    throw new Error(`local classifier ${stored.version} expects ${stored.featureWidth} features, features.ts gives ${featureWidth}: run libs/pii/scripts/train-classifier.ts`)
  }
  loaded = modelOf(stored)
  return loaded
}

/** Verdicts of a given model (the shipped one by default): the most probable class and its probability. */
export const classifyWith = (classifier: SoftmaxModel, input: ScanInput): ReadonlyArray<AiColumnVerdict> =>
  input.columns.map((column) => {
    const probabilities = predictProbabilities(classifier, columnFeatures(column))
    let best = 0
    for (let c = 1; c < probabilities.length; c++) if (probabilities[c]! > probabilities[best]!) best = c
    return { column: column.name, type: classifierClasses[best] ?? null, confidence: Math.round(probabilities[best]! * 1000) / 1000 }
  })

/**
 * The AI layer that runs offline: a softmax regression over hashed name and value features, trained by
 * libs/pii/scripts/train-classifier.ts on a generated corpus and shipped as a versioned artifact.
 */
export const localClassifier = {
  version: stored.version,
  training: stored.training
} as const

export const classifyColumns = (input: ScanInput): ReadonlyArray<AiColumnVerdict> => classifyWith(shippedModel(), input)
