import type { ColumnType } from "@synth/synth"
import type { Draws } from "./draws.ts"

/** One drawn fake: its text and the form that equal values share (`key`), checked against the real values. */
export interface Candidate {
  readonly text: string
  readonly key: string
}

/** What a learner knows besides the values. */
export interface LearnContext {
  /** A format, locale, domain or prefix held by fewer rows is not learned. */
  readonly k: number
  readonly type: ColumnType
}

/** What a generator knows when it is compiled for one output. */
export interface CompileContext {
  readonly draws: Draws
  readonly column: string
  /** Distinct values the output may need: its present rows plus the real ones, which are never drawn. */
  readonly needed: number
  readonly unique: boolean
}

/** Draws one candidate; the caller redraws those that are real, repeated or not detectable. */
export type CandidateSource = () => Candidate

/** The column's name is in every error; a value never is. */
export const fakeError = (column: string, problem: string) => new Error(`Faking column "${column}": ${problem}`)
