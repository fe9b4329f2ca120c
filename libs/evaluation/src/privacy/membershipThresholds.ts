// The membership check's thresholds, apart from the attack's code: the share verdict (which the gateway's chat reads
// at start) needs them, the attack's distance tables only an evaluation job.
/**
 * The attack may do at most this well (AUC)… A distance attack on a generator that learned the population and not
 * its rows stays near 0.5; 0.6 is where the privacy recommendations have always called it a risk.
 */
export const membershipInferenceMaxAuc = 0.6
/**
 * … and the 95 % interval must rule out a moderate attack (AUC 0.7): with a handful of held-out rows the interval
 * is too wide to show that the data is safe, and the check says so rather than passing.
 */
export const membershipInferenceMaxAucHigh = 0.7
