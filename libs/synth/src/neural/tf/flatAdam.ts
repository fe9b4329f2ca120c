/**
 * Adam as adam.ts computes it (PyTorch's torch.optim.Adam, L2 weight decay added to the gradient), over one flat
 * array of parameters in a single loop: the direct CTGAN step (ctgan/direct/) keeps each network's parameters and
 * gradients flat, where adam.ts runs ~15 tfjs operations per variable.
 */
import type { AdamOptions } from "./adam.ts"

export interface FlatAdam {
  /** Updates `parameters` in place from `gradients` (same layout; not modified). */
  readonly step: (parameters: Float32Array, gradients: Float32Array) => void
}

export const makeFlatAdam = (size: number, options: AdamOptions): FlatAdam => {
  const { beta1, beta2, learningRate } = options
  const epsilon = options.epsilon ?? 1e-8
  const weightDecay = options.weightDecay ?? 0
  const firstMoments = new Float32Array(size)
  const secondMoments = new Float32Array(size)
  let steps = 0
  const step = (parameters: Float32Array, gradients: Float32Array) => {
    if (parameters.length !== size || gradients.length !== size) {
      throw new RangeError(`Adam: ${parameters.length} parameters and ${gradients.length} gradients for ${size}`)
    }
    steps += 1
    const firstCorrection = 1 - beta1 ** steps
    const secondCorrection = 1 - beta2 ** steps
    const stepSize = learningRate / firstCorrection
    // √(v / c) as √v · (1/√c): one division fewer per parameter.
    const rootCorrection = 1 / Math.sqrt(secondCorrection)
    const keepFirst = 1 - beta1
    const keepSecond = 1 - beta2
    for (let i = 0; i < size; i++) {
      const theta = parameters[i]!
      const gradient = gradients[i]! + weightDecay * theta
      const m = beta1 * firstMoments[i]! + keepFirst * gradient
      const v = beta2 * secondMoments[i]! + keepSecond * gradient * gradient
      firstMoments[i] = m
      secondMoments[i] = v
      parameters[i] = theta - (stepSize * m) / (Math.sqrt(v) * rootCorrection + epsilon)
    }
  }
  return { step }
}
