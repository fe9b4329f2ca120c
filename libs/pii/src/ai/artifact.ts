import { piiTypes, type PiiType } from "../types.ts"
import type { SoftmaxModel } from "./softmaxRegression.ts"

/** The classes of the local classifier: "not personal data" first, then the types in types.ts order. */
export const classifierClasses: ReadonlyArray<PiiType | null> = [null, ...piiTypes]

/**
 * The stored form of a trained classifier (JSON): weights as base64 little-endian float32, with what produced them.
 * `version` names the feature layout and training recipe: features.ts changing means a new version.
 */
export interface ClassifierArtifact {
  readonly version: string
  readonly featureWidth: number
  readonly classes: ReadonlyArray<string>
  readonly weights: string
  readonly bias: ReadonlyArray<number>
  readonly training: {
    readonly corpusSeeds: ReadonlyArray<number>
    readonly tables: number
    readonly rowsPerTable: number
    readonly epochs: number
    readonly examples: number
    readonly heldOutAccuracy: number
  }
}

const toBase64 = (values: Float32Array) => {
  const bytes = new Uint8Array(values.length * 4)
  const view = new DataView(bytes.buffer)
  values.forEach((value, index) => view.setFloat32(index * 4, value, true))
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const fromBase64 = (text: string) => {
  const binary = atob(text)
  const view = new DataView(new ArrayBuffer(binary.length))
  for (let index = 0; index < binary.length; index++) view.setUint8(index, binary.charCodeAt(index))
  return Float32Array.from({ length: binary.length / 4 }, (_, index) => view.getFloat32(index * 4, true))
}

export const artifactOf = (model: SoftmaxModel, version: string, training: ClassifierArtifact["training"]): ClassifierArtifact => ({
  version,
  featureWidth: model.width,
  classes: classifierClasses.map((type) => type ?? "none"),
  weights: toBase64(model.weights),
  bias: [...model.bias].map((value) => Math.fround(value)),
  training
})

export const modelOf = (artifact: ClassifierArtifact): SoftmaxModel => ({
  classes: artifact.classes.length,
  width: artifact.featureWidth,
  weights: fromBase64(artifact.weights),
  bias: Float32Array.from(artifact.bias)
})
