import { meanAndSquaredDeviations } from "@synth/stats"
import type { Random } from "../random.ts"

/**
 * k-means on one dimension, as scikit-learn's KMeans(n_init=1) runs it: greedy k-means++ seeding (2 + ⌊ln k⌋
 * candidates per centre, keeping the one that lowers the inertia most), then Lloyd iterations until the centres move
 * less than 1e-4 of the data's variance (300 at most). It only starts the Bayesian mixture (as in scikit-learn), so
 * matching scikit-learn's random stream is not needed: the modes the mixture then finds are what is compared.
 * Returns each value's cluster. With fewer distinct values than clusters some clusters stay empty, which the mixture
 * handles (their weight goes to zero).
 */
export const kMeans1d = (values: Float64Array, clusters: number, random: Random): Int32Array => {
  const centres = seedCentres(values, clusters, random)
  const labels = new Int32Array(values.length)
  const tolerance = 1e-4 * variance(values)
  const sums = new Float64Array(clusters)
  const counts = new Float64Array(clusters)
  for (let iteration = 0; iteration < 300; iteration++) {
    sums.fill(0)
    counts.fill(0)
    for (let i = 0; i < values.length; i++) {
      const label = nearest(centres, values[i]!)
      labels[i] = label
      sums[label]! += values[i]!
      counts[label]! += 1
    }
    let shift = 0
    for (let k = 0; k < clusters; k++) {
      if (counts[k] === 0) continue
      const moved = sums[k]! / counts[k]!
      shift += (moved - centres[k]!) ** 2
      centres[k] = moved
    }
    if (shift <= tolerance) break
  }
  for (let i = 0; i < values.length; i++) labels[i] = nearest(centres, values[i]!)
  return labels
}

const nearest = (centres: Float64Array, value: number): number => {
  let best = 0
  let bestDistance = Infinity
  for (let k = 0; k < centres.length; k++) {
    const distance = (value - centres[k]!) ** 2
    if (distance < bestDistance) {
      bestDistance = distance
      best = k
    }
  }
  return best
}

const variance = (values: Float64Array): number => meanAndSquaredDeviations(values).squares / values.length

const seedCentres = (values: Float64Array, clusters: number, random: Random): Float64Array => {
  const centres = new Float64Array(clusters)
  const trials = 2 + Math.floor(Math.log(clusters))
  centres[0] = values[random.integer(values.length)]!
  const closest = Float64Array.from(values, (value) => (value - centres[0]!) ** 2)
  let potential = closest.reduce((sum, distance) => sum + distance, 0)
  for (let k = 1; k < clusters; k++) {
    let bestCandidate = values[random.integer(values.length)]!
    let bestPotential = Infinity
    for (let trial = 0; trial < trials; trial++) {
      const candidate = potential > 0 ? values[drawByDistance(closest, potential * random.next())]! : bestCandidate
      let candidatePotential = 0
      for (let i = 0; i < values.length; i++) candidatePotential += Math.min(closest[i]!, (values[i]! - candidate) ** 2)
      if (candidatePotential < bestPotential) {
        bestPotential = candidatePotential
        bestCandidate = candidate
      }
    }
    centres[k] = bestCandidate
    for (let i = 0; i < values.length; i++) closest[i] = Math.min(closest[i]!, (values[i]! - bestCandidate) ** 2)
    potential = bestPotential
  }
  return centres
}

/** The index where the running sum of squared distances passes `target`: a draw proportional to them. */
const drawByDistance = (closest: Float64Array, target: number): number => {
  let running = 0
  for (let i = 0; i < closest.length; i++) {
    running += closest[i]!
    if (running > target) return i
  }
  return closest.length - 1
}
