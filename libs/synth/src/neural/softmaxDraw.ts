/**
 * One category drawn from the softmax of a span of logits, written over the span as its one-hot. Sampling reads
 * one-hot spans this way: it is the distribution of the gumbel-softmax's largest entry (argmax(logit + Gumbel noise)
 * is a draw from softmax(logit), the Gumbel-max trick), from one uniform per span where the gumbel-softmax takes a
 * Gumbel draw (two logarithms) and an exponential per entry. Training keeps the gumbel-softmax, whose gradient it
 * needs.
 */
export const drawOneHot = (row: Float32Array, offset: number, width: number, uniform: number): void => {
  const end = offset + width
  let largest = -Infinity
  for (let k = offset; k < end; k++) if (row[k]! > largest) largest = row[k]!
  // The exponentials are kept in the span and summed as kept, so the walk below subtracts what was added.
  let total = 0
  for (let k = offset; k < end; k++) {
    row[k] = Math.exp(row[k]! - largest)
    total += row[k]!
  }
  let remaining = uniform * total
  let chosen = end - 1
  for (let k = offset; k < end; k++) {
    remaining -= row[k]!
    if (remaining < 0) {
      chosen = k
      break
    }
  }
  row.fill(0, offset, end)
  row[chosen] = 1
}

/** A uniform in (0, 1) from 32 random bits: enough for a category draw, and the cheapest draw a Random makes. */
export const uniformOf = (bits: number): number => (bits + 0.5) * 2.3283064365386963e-10
