/**
 * An optimiser whose every step first averages its gradients with the other training thread's (gradientExchange),
 * then updates as the wrapped optimiser does. Both threads start from the same weights and apply the same averaged
 * gradients through the same Adam, so their replicas stay identical: data parallelism without a parameter server.
 */
import * as tf from "@tensorflow/tfjs"
import type { Adam } from "../tf/adam.ts"
import type { GradientExchange } from "./gradientExchange.ts"

/** How many floats a step of these variables exchanges. */
export const parameterCount = (variables: ReadonlyArray<tf.Variable>): number =>
  variables.reduce((sum, variable) => sum + variable.size, 0)

/** `weights`, when given, tells each step's shares of the batch (TVAE's last batch of an epoch is short). */
export const syncedOptimizer = (
  optimizer: Adam,
  exchange: GradientExchange,
  variables: ReadonlyArray<tf.Variable>,
  weights?: () => readonly [number, number]
): Adam => {
  const flat = new Float32Array(parameterCount(variables))
  const step = (gradients: ReadonlyArray<tf.Tensor>) => {
    let offset = 0
    for (const gradient of gradients) {
      flat.set(gradient.dataSync() as Float32Array, offset)
      offset += gradient.size
    }
    exchange.average(flat, weights?.())
    tf.tidy(() => {
      let at = 0
      const averaged = gradients.map((gradient) => {
        const tensor = tf.tensor(flat.subarray(at, at + gradient.size), gradient.shape)
        at += gradient.size
        return tensor
      })
      optimizer.step(averaged)
    })
  }
  return { step, dispose: optimizer.dispose }
}
