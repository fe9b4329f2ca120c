/**
 * Adam as PyTorch's torch.optim.Adam computes it, weight decay included: CTGAN and TVAE are specified with
 * PyTorch's optimiser (`weight_decay` adds decay·θ to the gradient before the moments, an L2 penalty, not AdamW's
 * decoupled decay), and tfjs's own Adam has no weight decay at all.
 *
 *   g ← g + decay·θ;  m ← β1·m + (1−β1)·g;  v ← β2·v + (1−β2)·g²
 *   θ ← θ − lr · (m / (1−β1^t)) / (√(v / (1−β2^t)) + ε)
 */
import * as tf from "@tensorflow/tfjs"

export interface AdamOptions {
  readonly learningRate: number
  readonly beta1: number
  readonly beta2: number
  readonly epsilon?: number
  readonly weightDecay?: number
}

export interface Adam {
  /** Applies one update; `gradients[i]` belongs to the i-th variable given at construction. Disposes nothing given. */
  readonly step: (gradients: ReadonlyArray<tf.Tensor>) => void
  readonly dispose: () => void
}

export const makeAdam = (variables: ReadonlyArray<tf.Variable>, options: AdamOptions): Adam => {
  const { learningRate, beta1, beta2 } = options
  const epsilon = options.epsilon ?? 1e-8
  const weightDecay = options.weightDecay ?? 0
  // Inside tidy, so that the zero tensors the moments are copied from are freed.
  const firstMoments = tf.tidy(() => variables.map((variable) => tf.variable(tf.zerosLike(variable), false)))
  const secondMoments = tf.tidy(() => variables.map((variable) => tf.variable(tf.zerosLike(variable), false)))
  let steps = 0

  const step = (gradients: ReadonlyArray<tf.Tensor>) => {
    if (gradients.length !== variables.length) {
      throw new Error(`Adam: ${gradients.length} gradients for ${variables.length} variables`)
    }
    steps += 1
    const firstCorrection = 1 - beta1 ** steps
    const secondCorrection = 1 - beta2 ** steps
    tf.tidy(() => {
      variables.forEach((variable, index) => {
        const gradient = weightDecay === 0 ? gradients[index]! : tf.add(gradients[index]!, tf.mul(variable, weightDecay))
        const m = tf.add(tf.mul(firstMoments[index]!, beta1), tf.mul(gradient, 1 - beta1))
        const v = tf.add(tf.mul(secondMoments[index]!, beta2), tf.mul(tf.square(gradient), 1 - beta2))
        firstMoments[index]!.assign(m)
        secondMoments[index]!.assign(v)
        const denominator = tf.add(tf.sqrt(tf.div(v, secondCorrection)), epsilon)
        variable.assign(tf.sub(variable, tf.mul(tf.div(m, denominator), learningRate / firstCorrection)))
      })
    })
  }

  const dispose = () => {
    for (const moment of [...firstMoments, ...secondMoments]) moment.dispose()
  }

  return { step, dispose }
}
