/**
 * Multinomial logistic regression (softmax) trained with seeded mini-batch Adam and L2 weight decay. Written here
 * rather than taken from ml-logistic-regression: that package trains one-vs-rest binary models (probabilities that
 * do not sum to one, so no usable confidence) through ml-matrix on dense matrices, and shuffles with Math.random,
 * which cannot be seeded — the artifact must be reproducible byte for byte.
 */
export interface SoftmaxModel {
  readonly classes: number
  readonly width: number
  /** Row-major: class c's weights are weights[c * width .. (c + 1) * width). */
  readonly weights: Float32Array
  readonly bias: Float32Array
}

export const predictProbabilities = (model: SoftmaxModel, features: Float32Array): Float64Array => {
  const scores = new Float64Array(model.classes)
  let max = -Infinity
  for (let c = 0; c < model.classes; c++) {
    let score = model.bias[c]!
    const row = c * model.width
    for (let j = 0; j < model.width; j++) {
      const x = features[j]!
      if (x !== 0) score += model.weights[row + j]! * x
    }
    scores[c] = score
    if (score > max) max = score
  }
  let sum = 0
  for (let c = 0; c < model.classes; c++) {
    scores[c] = Math.exp(scores[c]! - max)
    sum += scores[c]!
  }
  for (let c = 0; c < model.classes; c++) scores[c] = scores[c]! / sum
  return scores
}

export interface TrainingOptions {
  readonly epochs: number
  readonly batchSize: number
  readonly learningRate: number
  readonly l2: number
  /** Seeds the order of examples in each epoch. */
  readonly seed: number
}

const mulberry32 = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const trainSoftmax = (
  examples: ReadonlyArray<{ readonly features: Float32Array; readonly label: number }>,
  classes: number,
  options: TrainingOptions
): SoftmaxModel => {
  const width = examples[0]?.features.length ?? 0
  const weights = new Float32Array(classes * width)
  const bias = new Float32Array(classes)
  const size = weights.length
  const m = new Float64Array(size + classes)
  const v = new Float64Array(size + classes)
  const gradient = new Float64Array(size + classes)
  const random = mulberry32(options.seed)
  const order = examples.map((_, index) => index)
  const beta1 = 0.9
  const beta2 = 0.999
  let step = 0
  const model = { classes, width, weights, bias }
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let index = order.length - 1; index > 0; index--) {
      const swap = Math.floor(random() * (index + 1))
      ;[order[index], order[swap]] = [order[swap]!, order[index]!]
    }
    for (let start = 0; start < order.length; start += options.batchSize) {
      gradient.fill(0)
      const batch = order.slice(start, start + options.batchSize)
      for (const exampleIndex of batch) {
        const { features, label } = examples[exampleIndex]!
        const probabilities = predictProbabilities(model, features)
        for (let c = 0; c < classes; c++) {
          const error = probabilities[c]! - (c === label ? 1 : 0)
          const row = c * width
          for (let j = 0; j < width; j++) {
            const x = features[j]!
            if (x !== 0) gradient[row + j]! += error * x
          }
          gradient[size + c]! += error
        }
      }
      step++
      const correction1 = 1 - beta1 ** step
      const correction2 = 1 - beta2 ** step
      for (let k = 0; k < size + classes; k++) {
        const parameter = k < size ? weights[k]! : bias[k - size]!
        const g = gradient[k]! / batch.length + (k < size ? options.l2 * parameter : 0)
        m[k] = beta1 * m[k]! + (1 - beta1) * g
        v[k] = beta2 * v[k]! + (1 - beta2) * g * g
        const update = (options.learningRate * (m[k]! / correction1)) / (Math.sqrt(v[k]! / correction2) + 1e-8)
        if (k < size) weights[k] = parameter - update
        else bias[k - size] = parameter - update
      }
    }
  }
  return model
}
