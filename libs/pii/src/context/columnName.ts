import type { PiiType } from "../types.ts"
import { notPersonWords, personRoleWords, roleFillers, vetoWords, vocabulary, wholeNameOnly } from "./vocabulary.ts"

/**
 * What a column's name says: a type and how plainly (`exact`: the whole name; `partial`: part of it; `role`: the name
 * only says whose the value is, `employee`, `who`, `manager`, or is a bare `first` / `last`: a person's name only if
 * the values read as names).
 */
export interface NameHint {
  readonly types: ReadonlyArray<PiiType>
  readonly strength: "exact" | "partial" | "role"
  /** The phrase that matched, for explanations. */
  readonly phrase: string
}

/** Words that only say whose the value is: `customer_email` is as plainly an email as `email`. */
const ownerWords = new Set([
  "customer", "client", "user", "patient", "employee", "member", "contact", "person", "primary", "secondary", "home",
  "work", "personal", "private", "billing", "shipping", "main", "alt", "alternate", "other", "my", "the", "of", "de",
  "du", "la", "le", "del", "da", "do", "di", "van", "kunde", "kunden", "cliente", "utente", "klant", "no", "nr",
  "num", "number", "numero", "nummer", "id", "value", "1", "2"
])

/** lower case, accents removed; camelCase, snake_case, kebab-case, dots and digits split into words. */
export const nameWords = (name: string): ReadonlyArray<string> =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/(\p{L})(\d)|(\d)(\p{L})/gu, (_, a, b, c, d) => (a === undefined ? `${c} ${d}` : `${a} ${b}`))
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")

interface Phrase {
  readonly types: ReadonlyArray<PiiType>
  readonly words: ReadonlyArray<string>
  readonly compact: string
}

const phrases: ReadonlyArray<Phrase> = vocabulary.flatMap(([types, entries]) =>
  entries.map((entry) => ({ types, words: entry.split(" "), compact: entry.replaceAll(" ", "") }))
)

const containsRun = (words: ReadonlyArray<string>, run: ReadonlyArray<string>) => {
  for (let start = 0; start + run.length <= words.length; start++) {
    if (run.every((word, offset) => words[start + offset] === word)) return true
  }
  return false
}

/**
 * The types a column name suggests, best first: the longest matching phrase wins (`email address` over `address`).
 * A whole-name match after dropping owner words (`customer_email`, `patient.dob`) is `exact`; a phrase inside a
 * longer name (`emergency_contact_phone`) or glued into a compound of 5+ letters (`kundenemail`) is `partial`.
 * A veto word (`phone_service`, `zip_file`, `email_count`) gives no hint at all.
 */
export const nameHint = (name: string): NameHint | undefined => {
  const words = nameWords(name)
  if (words.length === 0 || words.some((word) => vetoWords.has(word))) return undefined
  const core = words.filter((word) => !ownerWords.has(word))
  const coreCompact = core.join("")
  const compact = words.join("")
  let best: { hint: NameHint; score: number } | undefined
  for (const phrase of phrases) {
    let strength: NameHint["strength"] | undefined
    if (coreCompact === phrase.compact || compact === phrase.compact) strength = "exact"
    else if (wholeNameOnly.has(phrase.compact)) continue
    else if (containsRun(words, phrase.words)) strength = "partial"
    else if (phrase.compact.length >= 5 && compact.includes(phrase.compact)) strength = "partial"
    if (strength === undefined) continue
    if (phrase.types.includes("person_name") && words.some((word) => notPersonWords.has(word))) continue
    const score = phrase.compact.length + (strength === "exact" ? 100 : 0)
    if (best === undefined || score > best.score) best = { hint: { types: phrase.types, strength, phrase: phrase.words.join(" ") }, score }
  }
  return best?.hint ?? roleHint(words)
}

/** `employee`, `who`, `account_manager`, `assigned_to`, `first`: role words and fillers only, one role word at least. */
const roleHint = (words: ReadonlyArray<string>): NameHint | undefined => {
  const roles = words.filter((word) => personRoleWords.has(word))
  if (roles.length === 0 || !words.every((word) => personRoleWords.has(word) || roleFillers.has(word))) return undefined
  return { types: ["person_name"], strength: "role", phrase: roles.join(" ") }
}

/** The name is about something other than a person's data (`order_number`, `email_count`, `version`). */
export const hasVetoWord = (name: string): boolean => nameWords(name).some((word) => vetoWords.has(word))
