import { oneZero, trueFalse, yesNo, yN } from "./booleanText.ts"

const pairWords: ReadonlyArray<readonly [pair: number, truthy: string, falsy: string]> = [
  [trueFalse, "true", "false"],
  [yesNo, "yes", "no"],
  [yN, "y", "n"],
  [oneZero, "1", "0"]
]

/**
 * How often each exact spelling of a boolean column's cells occurs (`Yes`, `yes`, `YES` apart), so the column can be
 * written back with the file's own spelling. Only cells that are boolean spellings reach it, at most five characters
 * each, so the map holds a few dozen entries at worst.
 */
export class BooleanSpellings {
  readonly #counts = new Map<string, number>()

  observe(spelling: string): void {
    this.#counts.set(spelling, (this.#counts.get(spelling) ?? 0) + 1)
  }

  /**
   * The most frequent spelling of true and of false in `pair` (bits of booleanText; the first pair whose bit is set
   * when several remain). A value that never occurs takes the case of the other (`YES` → `NO`).
   */
  resolve(pairs: number): { readonly trueText: string; readonly falseText: string } {
    const [, truthy, falsy] = pairWords.find(([pair]) => (pairs & pair) !== 0) ?? pairWords[0]!
    const trueText = this.#mostFrequent(truthy)
    const falseText = this.#mostFrequent(falsy)
    return {
      trueText: trueText ?? inCaseOf(truthy, falseText),
      falseText: falseText ?? inCaseOf(falsy, trueText)
    }
  }

  #mostFrequent(word: string): string | undefined {
    let best: string | undefined
    let bestCount = 0
    for (const [spelling, count] of this.#counts) {
      if (count > bestCount && spelling.toLowerCase() === word) {
        best = spelling
        bestCount = count
      }
    }
    return best
  }
}

/** `word` (lower case) written in the case of `model`: all capitals, a capital first, or lower case. */
const inCaseOf = (word: string, model: string | undefined): string => {
  if (model === undefined || model.toLowerCase() === model) return word
  if (model.length > 1 && model.toUpperCase() === model) return word.toUpperCase()
  return model[0] === model[0]!.toUpperCase() ? word[0]!.toUpperCase() + word.slice(1) : word
}
