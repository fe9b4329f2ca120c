import type { CategoricalColumn, SynthColumn } from "@synth/synth"
import { createHmac } from "node:crypto"
import { columnText } from "./columnText.ts"

/**
 * The `hash` handling: each value becomes a pseudonym, the first 16 hex digits of its HMAC-SHA-256 under the
 * generator's key. Equal values get equal pseudonyms (joins and counts within the output still work), and without the
 * key nobody can check a guessed value against them. The column is then learned like any text column.
 */
export const pseudonym = (key: string, value: string): string =>
  `h${createHmac("sha256", key).update(value).digest("hex").slice(0, 16)}`

export const hashColumn = (column: SynthColumn, key: string): CategoricalColumn => {
  const texts = columnText(column)
  const dictionary = new Map<string, number>()
  const categories: Array<string> = []
  const codes = Int32Array.from(texts, (text) => {
    if (text === null) return -1
    const hashed = pseudonym(key, text)
    let code = dictionary.get(hashed)
    if (code === undefined) {
      code = categories.length
      dictionary.set(hashed, code)
      categories.push(hashed)
    }
    return code
  })
  return { kind: "categorical", name: column.name, type: "string", categories, codes }
}
