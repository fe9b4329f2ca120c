/**
 * Masks: a value's layout with its variable characters as placeholders — `#` a digit, `A` an upper-case letter, `a`
 * a lower-case letter; any other character is written as is (`\` escapes a literal `#`, `A`, `a` or `\`).
 * `123-45-6789` has the mask `###-##-####`, `AB 12 34 56 C` the mask `AA ## ## ## A`.
 */

const placeholders = new Set(["#", "A", "a", "\\"])

const isDigit = (code: number) => code >= 48 && code <= 57
const isUpper = (character: string) => character !== character.toLowerCase() && character === character.toUpperCase()
const isLower = (character: string) => character !== character.toUpperCase() && character === character.toLowerCase()

export const maskOf = (value: string): string => {
  let mask = ""
  for (const character of value) {
    if (isDigit(character.charCodeAt(0))) mask += "#"
    else if (isUpper(character)) mask += "A"
    else if (isLower(character)) mask += "a"
    else mask += placeholders.has(character) ? `\\${character}` : character
  }
  return mask
}

/** How many characters the mask takes from a value: its placeholders. */
export const placeholderCount = (mask: string): number => {
  let count = 0
  for (let index = 0; index < mask.length; index++) {
    const character = mask[index]!
    if (character === "\\") index++
    else if (character === "#" || character === "A" || character === "a") count++
  }
  return count
}

/** The placeholder kinds in order (`#`, `A` or `a`): what a scheme must produce for this mask. */
export const placeholdersOf = (mask: string): string => {
  let kinds = ""
  for (let index = 0; index < mask.length; index++) {
    const character = mask[index]!
    if (character === "\\") index++
    else if (character === "#" || character === "A" || character === "a") kinds += character
  }
  return kinds
}

/**
 * A writer of values into the mask: the characters of a compact value (one per placeholder, in order) with the mask's
 * literals between them, letters in their placeholder's case. Compiled once per mask: a million values are written
 * as a few slices each rather than character by character.
 */
export const maskWriter = (mask: string): ((compact: string) => string) => {
  type Piece = { readonly literal: string } | { readonly from: number; readonly to: number; readonly casing: "#" | "A" | "a" }
  const pieces: Array<Piece> = []
  let taken = 0
  let literal = ""
  const flushLiteral = () => {
    if (literal !== "") pieces.push({ literal })
    literal = ""
  }
  for (let index = 0; index < mask.length; index++) {
    const character = mask[index]!
    if (character === "\\") {
      literal += mask[++index] ?? ""
      continue
    }
    if (character !== "#" && character !== "A" && character !== "a") {
      literal += character
      continue
    }
    flushLiteral()
    const last = pieces[pieces.length - 1]
    if (last !== undefined && "casing" in last && last.casing === character && last.to === taken) pieces[pieces.length - 1] = { ...last, to: taken + 1 }
    else pieces.push({ from: taken, to: taken + 1, casing: character })
    taken++
  }
  flushLiteral()
  return (compact) => {
    let text = ""
    for (const piece of pieces) {
      if ("literal" in piece) text += piece.literal
      else {
        const part = compact.slice(piece.from, piece.to)
        text += piece.casing === "A" ? part.toUpperCase() : piece.casing === "a" ? part.toLowerCase() : part
      }
    }
    return text
  }
}

/** Letters and digits only, upper case: the form two writings of one code share (`ab 12 34 56 c` = `AB123456C`). */
export const compactUpper = (value: string): string => value.replace(/[^\p{L}\p{N}]/gu, "").toUpperCase()

/** How a text is cased: all upper, all lower, or otherwise (title or mixed). */
export const casingOf = (value: string): "upper" | "lower" | "title" => {
  const upper = value.toUpperCase()
  const lower = value.toLowerCase()
  if (upper === lower) return "title"
  if (value === upper) return "upper"
  if (value === lower) return "lower"
  return "title"
}

const foldTable: Record<string, string> = { ß: "ss", ø: "o", æ: "ae", œ: "oe", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i" }

/**
 * A name as e-mail addresses and usernames write it: ASCII letters only (accents dropped, ß → ss), lower case.
 * Empty for a script with no Latin letters.
 */
export const asciiFold = (word: string): string => {
  if (/^[A-Za-z0-9]*$/.test(word)) return word.toLowerCase()
  return word
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[ßøæœłđðþı]/g, (character) => foldTable[character] ?? "")
    .replace(/[^a-z0-9]/g, "")
}
