/** The χ² survival function (scipy.stats.chi2.sf) for the chi-square test, from @synth/synth's incomplete gamma. */
import { gammaQ } from "@synth/synth"

/** P(χ²_k > x), scipy.stats.chi2.sf(x, k). */
export const chiSquareSurvival = (x: number, degreesOfFreedom: number): number => {
  if (Number.isNaN(x)) return NaN
  return gammaQ(degreesOfFreedom / 2, x / 2)
}
