import * as tf from "@tensorflow/tfjs"
import { parameterCount } from "./syncedOptimizer.ts"

/** Every variable's values, one after another (the layout a peer's `writeWeights` reads). */
export const readWeights = (variables: ReadonlyArray<tf.Variable>): Float32Array => {
  const flat = new Float32Array(parameterCount(variables))
  let offset = 0
  for (const variable of variables) {
    flat.set(variable.dataSync() as Float32Array, offset)
    offset += variable.size
  }
  return flat
}

/** Sets the variables to the values `readWeights` gave for variables of the same shapes. */
export const writeWeights = (variables: ReadonlyArray<tf.Variable>, flat: Float32Array): void => {
  if (flat.length !== parameterCount(variables)) {
    throw new RangeError(`writeWeights: ${flat.length} values for ${parameterCount(variables)} parameters`)
  }
  let offset = 0
  tf.tidy(() => {
    for (const variable of variables) {
      variable.assign(tf.tensor(flat.subarray(offset, offset + variable.size), variable.shape))
      offset += variable.size
    }
  })
}
