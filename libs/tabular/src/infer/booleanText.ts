/**
 * The ways of writing a boolean that a column may use, as bits so that a column keeps the intersection of what its
 * cells allow. A column must stay within one pair: `yes` with `0` is not a boolean column. `y/n` is accepted (survey
 * exports use it); `t/f` is not, because a column of single letters such as `F` / `M` or grades is far more often a
 * code than a boolean.
 */
export const trueFalse = 1
export const yesNo = 2
export const yN = 4
export const oneZero = 8
export const anyBooleanPair = trueFalse | yesNo | yN | oneZero

/** In order of preference when several pairs remain (a column of JSON booleans allows them all). */
export const booleanPairNames: ReadonlyArray<readonly [number, string]> = [
  [trueFalse, "true/false"],
  [yesNo, "yes/no"],
  [yN, "y/n"],
  [oneZero, "1/0"]
]

const spellings = new Map<string, readonly [pair: number, truth: boolean]>([
  ["true", [trueFalse, true]],
  ["false", [trueFalse, false]],
  ["yes", [yesNo, true]],
  ["no", [yesNo, false]],
  ["y", [yN, true]],
  ["n", [yN, false]],
  ["1", [oneZero, true]],
  ["0", [oneZero, false]]
])
const longestSpelling = 5

/**
 * The truth of a cell that inference accepted as a boolean spelling. The canonical spellings skip the lower-casing
 * and the map: pass 2 reads every cell of a boolean column here.
 */
export const booleanValueOf = (text: string): boolean | undefined =>
  text === "true" ? true : text === "false" ? false : text.length > longestSpelling
  ? undefined
  : spellings.get(text.toLowerCase())?.[1]

/** `booleanValueOf` of `text` from `start` to `end` (a CSV field in place); no string for the canonical spellings. */
export const booleanValueIn = (text: string, start: number, end: number): boolean | undefined =>
  isWordAt(text, start, end, "true")
    ? true
    : isWordAt(text, start, end, "false")
    ? false
    : booleanValueOf(text.slice(start, end))

/** The pair bit of a trimmed cell, `text` from `start` to `end` (0: not a boolean spelling). */
export const booleanPairIn = (text: string, start: number, end: number): number =>
  isCanonicalBooleanIn(text, start, end)
    ? trueFalse
    : end - start > longestSpelling
    ? 0
    : (spellings.get(text.slice(start, end).toLowerCase())?.[0] ?? 0)

/** `text` from `start` to `end` is already written the way the normalised table renders booleans. */
export const isCanonicalBooleanIn = (text: string, start: number, end: number): boolean =>
  isWordAt(text, start, end, "true") || isWordAt(text, start, end, "false")

const isWordAt = (text: string, start: number, end: number, word: string): boolean =>
  end - start === word.length && text.startsWith(word, start)
