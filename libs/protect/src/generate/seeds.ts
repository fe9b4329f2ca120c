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
  return {
    rareCategories,
    rowFilterKey,
    fakePlan: (column: number) => (fakeBase + Math.imul(column + 1, 0x9e37_79b9)) >>> 0
  }
}

/** Per sample (a seed of its own): the draws of the similarity filter's rounds and of each faked column. */
export const sampleSeeds = (seed: number) => {
  const streams = makeRandom((seed ^ 0x71c3_5a0d) >>> 0)
  const redrawBase = streams.uint32()
  const fakeBase = streams.uint32()
  return {
    redraw: (round: number) => (redrawBase + Math.imul(round + 1, 0x85eb_ca6b)) >>> 0,
    fake: (column: number) => (fakeBase + Math.imul(column + 1, 0x9e37_79b9)) >>> 0
  }
}
