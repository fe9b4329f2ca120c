import { allLocales, type LocaleDefinition } from "@faker-js/faker"
import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { FakeGenerator, NameFormat } from "../FakePlan.ts"
import { anyNameIndex, firstNameIndex, lastNameIndex, likeliestLocale, lists, lookupForm, nameLists, nameLocales } from "../locales.ts"
import { casingOf } from "../masks.ts"
import { heldMix, orDefault } from "../mix.ts"

/**
 * Person names in the column's formats (`First Last`, `Last, First`, `F. Last`, first names only...) and in the mix of
 * faker locales its names come from, each name looked up in every locale's first- and last-name lists.
 */
type PersonNameGenerator = Extract<FakeGenerator, { _tag: "person_name" }>

const titleWords = (key: "prefix" | "suffix") => {
  const words = new Set<string>()
  for (const code of nameLocales) {
    for (const word of lists((allLocales as Record<string, LocaleDefinition>)[code]?.person?.[key])) words.add(lookupForm(word).replace(/\.$/, ""))
  }
  return words
}

let honorifics: { readonly prefixes: Set<string>; readonly suffixes: Set<string> } | undefined
const titles = () => (honorifics ??= { prefixes: titleWords("prefix"), suffixes: titleWords("suffix") })

const isInitial = (token: string) => /^\p{Lu}\.?$/u.test(token)
const bare = (token: string) => lookupForm(token).replace(/\.$/, "")

interface ParsedName {
  readonly template: string
  /** The name's words (not initials or titles), to find its locale. */
  readonly words: ReadonlyArray<string>
  readonly single: boolean
}

/** A role's placeholder, or its initial's with the dot the value wrote. */
const placeholder = (role: "first" | "middle" | "last", token: string) => {
  if (!isInitial(token)) return `{${role}}`
  const initial = role === "first" ? "{fi}" : role === "middle" ? "{mi}" : "{li}"
  return token.endsWith(".") ? `${initial}.` : initial
}

/**
 * The roles of a name's words: given name first, family name last; a middle word that only the last-name lists know
 * is a second family name (`Juan García López`), otherwise a middle name.
 */
const rolesFor = (core: ReadonlyArray<string>): ReadonlyArray<"first" | "middle" | "last"> => {
  if (core.length === 2) return ["first", "last"]
  const second = core[1]!
  const secondSurname = !isInitial(second) && lastNameIndex().localesOf(second) !== undefined && firstNameIndex().localesOf(second) === undefined
  if (core.length === 3) return ["first", secondSurname ? "last" : "middle", "last"]
  return ["first", "middle", "last", "last"]
}

const parseName = (value: string): ParsedName | undefined => {
  const { prefixes, suffixes } = titles()
  const comma = value.indexOf(",")
  const main = comma >= 0 ? value.slice(comma + 1) : value
  let tokens = main.split(/\s+/).filter((token) => token !== "")
  const lead: Array<string> = []
  const tail: Array<string> = []
  while (tokens.length > 1 && prefixes.has(bare(tokens[0]!))) {
    lead.push("{prefix}")
    tokens = tokens.slice(1)
  }
  while (comma < 0 && tokens.length > 1 && suffixes.has(bare(tokens[tokens.length - 1]!))) {
    tail.unshift("{suffix}")
    tokens = tokens.slice(0, -1)
  }
  if (comma >= 0) {
    const surnames = value.slice(0, comma).split(/\s+/).filter((token) => token !== "").slice(0, 2)
    if (surnames.length === 0 || tokens.length === 0) return undefined
    const given = tokens.slice(0, 2).map((token, index) => placeholder(index === 0 ? "first" : "middle", token))
    return {
      template: `${surnames.map((token) => placeholder("last", token)).join(" ")}, ${[...lead, ...given].join(" ")}`,
      words: [...surnames, ...tokens].filter((token) => !isInitial(token)),
      single: false
    }
  }
  if (tokens.length === 0) return undefined
  if (tokens.length === 1) return { template: "", words: tokens, single: true }
  const core = tokens.slice(0, 4)
  const roles = rolesFor(core)
  return {
    template: [...lead, ...core.map((token, index) => placeholder(roles[index]!, token)), ...tail].join(" "),
    words: core.filter((token) => !isInitial(token)),
    single: false
  }
}

const wordsOf = (words: ReadonlyArray<string>) => words.flatMap((word) => word.split("-")).filter((word) => word.length > 1)

/**
 * One-word values are first names or last names, decided for the whole column by which of faker's lists know more of
 * them, so a column of first names stays one of first names.
 */
const singleRole = (words: ReadonlyArray<string>): "first" | "last" => {
  let first = 0
  let last = 0
  for (const word of words) {
    if (firstNameIndex().localesOf(word) !== undefined) first++
    if (lastNameIndex().localesOf(word) !== undefined) last++
  }
  return first >= last ? "first" : "last"
}

export const learnPersonName = (values: ReadonlyArray<string>, context: LearnContext): PersonNameGenerator => {
  const parsed = values.map((value) => ({ value, name: parseName(value.trim().replace(/\s+/g, " ")) }))
  const singles = parsed.filter(({ name }) => name?.single === true).map(({ name }) => name!.words[0]!)
  const role = singleRole(singles)
  const formats: Array<NameFormat> = []
  const locales: Array<string> = []
  for (const { value, name } of parsed) {
    if (name === undefined) continue
    formats.push({ template: name.single ? `{${role}}` : name.template, case: casingOf(value) })
    const index = name.single ? (role === "first" ? firstNameIndex() : lastNameIndex()) : anyNameIndex()
    const locale = likeliestLocale(wordsOf(name.words), index, nameLocales)
    if (locale !== undefined) locales.push(locale)
  }
  return {
    _tag: "person_name",
    locales: orDefault(heldMix(locales, (code) => code, context.k), "en"),
    formats: orDefault(heldMix(formats, (format) => `${format.template}\u0000${format.case}`, context.k), defaultNameFormat)
  }
}

const defaultNameFormat: NameFormat = { template: "{first} {last}", case: "title" }

export const defaultPersonName: PersonNameGenerator = { _tag: "person_name", locales: [{ value: "en", rows: 1 }], formats: [{ value: defaultNameFormat, rows: 1 }] }

type Sex = "female" | "male"

export const compilePersonName = (generator: PersonNameGenerator, context: CompileContext): CandidateSource => {
  const { draws } = context
  const pickLists = draws.weighted(generator.locales.map(({ value: code, rows }) => ({ value: nameLists(code), rows })))
  const formats = generator.formats.map(({ value: format, rows }) => ({
    value: { parts: format.template.split(/(\{[a-z]+\})/).filter((part) => part !== ""), case: format.case },
    rows
  }))
  const pickFormat = draws.weighted(formats)
  const initial = (names: ReadonlyArray<string>) => draws.pick(names).charAt(0).toUpperCase()
  return () => {
    const lists = pickLists()
    const format = pickFormat()
    const sex: Sex | undefined = lists.gendered ? (draws.chance(0.5) ? "female" : "male") : undefined
    let text = ""
    for (const part of format.parts) {
      switch (part) {
        case "{first}":
        case "{middle}":
          text += draws.pick(lists.first(sex))
          break
        case "{last}":
          text += draws.pick(lists.last(sex))
          break
        case "{fi}":
        case "{mi}":
          text += initial(lists.first(sex))
          break
        case "{li}":
          text += initial(lists.last(sex))
          break
        case "{prefix}":
          text += draws.pick(lists.prefix(sex))
          break
        case "{suffix}":
          text += draws.pick(lists.suffix)
          break
        default:
          text += part
      }
    }
    const cased = format.case === "upper" ? text.toUpperCase() : format.case === "lower" ? text.toLowerCase() : text
    return { text: cased, key: personNameKey(cased) }
  }
}

/** The same words in any order and case are the same name (`Smith, John` = `JOHN SMITH`). */
export const personNameKey = (value: string) =>
  value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .sort()
    .join(" ")
