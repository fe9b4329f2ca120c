import { makeRandom } from "@synth/synth"

/**
 * The draws of the protections, each from its own stream derived from the generator's seed, so that none shifts
 * another (nor the model's own draws, which use the seed as given): the same seed gives the same output.
 */
export const protectionSeeds = (seed: number) => {
  const streams = makeRandom((seed ^ 0x2f6b_91c3) >>> 0)
  const rareCategories = streams.uint32()
  const fakeBase = streams.uint32()
  const rowFilterKey = `rows-${streams.uint32().toString(16)}`
  const tails = streams.uint32()
  // Drawn last, so that the streams above stay what they were before fixed combinations had one of their own.
  const rareCombinations = streams.uint32()
  return {
    rareCategories,
    rareCombinations,
    tails,
    rowFilterKey,
    fakePlan: (column: number) => (fakeBase + Math.imul(column + 1, 0x9e37_79b9)) >>> 0
  }
}

/** Per sample (a seed of its own): the draws of the similarity filter's rounds and of each faked column. */
export const sampleSeeds = (seed: number) => {
  const streams = makeRandom((seed ^ 0x71c3_5a0d) >>> 0)
  const redrawBase = streams.uint32()
  const fakeBase = streams.uint32()
  // Drawn after the others, so that a sample without constraints or conditions draws what it always did.
  const batchBase = streams.uint32()
  const refakeBase = streams.uint32()
  return {
    redraw: (round: number) => (redrawBase + Math.imul(round + 1, 0x85eb_ca6b)) >>> 0,
    fake: (column: number) => (fakeBase + Math.imul(column + 1, 0x9e37_79b9)) >>> 0,
    /** Rejection sampling's batches: the first is the sample's own seed, the rest seeds of their own. */
    batch: (round: number) => (round === 0 ? seed >>> 0 : (batchBase + Math.imul(round, 0xc2b2_ae35)) >>> 0),
    /** Fresh fakes for rows whose faked values repeat where a unique constraint forbids it. */
    refake: (round: number, column: number) => (refakeBase + Math.imul(round + 1, 0x27d4_eb2f) + Math.imul(column + 1, 0x1656_67b1)) >>> 0
  }
}
