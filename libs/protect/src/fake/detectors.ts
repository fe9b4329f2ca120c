import { patternDetectors } from "@synth/pii"
import type { FakeKind } from "../roles/ColumnPlan.ts"

/**
 * The scan's own detectors for a kind (strict and loose): a fake of a column whose real values they recognised must be
 * recognised too, or the faked column would stop looking like what it is.
 */
export const detectorFor = (kind: FakeKind): ((value: string) => boolean) | undefined => {
  const matchers = patternDetectors.filter((detector) => detector.type === kind).map((detector) => detector.matches)
  if (matchers.length === 0) return undefined
  return (value) => {
    const trimmed = value.trim()
    return trimmed !== "" && matchers.some((matches) => matches(trimmed))
  }
}
