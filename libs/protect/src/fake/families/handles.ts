import { allLocales } from "@faker-js/faker"
import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { FakeGenerator } from "../FakePlan.ts"
import { englishWords, foldedAnyNameIndex, foldedFirstNameIndex, foldedLastNameIndex, likeliestLocale, type NameLists, nameLists, nameLocales } from "../locales.ts"
import { asciiFold } from "../masks.ts"
import { countBy, heldMix, type Held, orDefault } from "../mix.ts"

/**
 * E-mail local parts and usernames as templates: `john.smith42` is `{first}.{last}{d2}`, `jsmith` is `{f}{last}`,
 * `Sunny_Days` is `{Word}_{Word}`. Name parts are found in faker's name lists (ASCII-folded, as addresses write
 * them); their case is in the placeholder (`{First}`, `{FIRST}`).
 */
type EmailGenerator = Extract<FakeGenerator, { _tag: "email" }>
type UsernameGenerator = Extract<FakeGenerator, { _tag: "username" }>

const isFirst = (word: string) => foldedFirstNameIndex().localesOf(word) !== undefined
const isLast = (word: string) => foldedLastNameIndex().localesOf(word) !== undefined

type Role = "first" | "last" | "f" | "l" | "word"

/** The roles of one run of letters: a name, an initial, a name glued to an initial or another name, or a word. */
const rolesOf = (run: string, position: number): ReadonlyArray<Role> => {
  const word = run.toLowerCase()
  if (word.length === 1) return [position === 0 ? "f" : "l"]
  const first = isFirst(word)
  const last = isLast(word)
  if (first && (!last || position === 0)) return ["first"]
  if (last) return ["last"]
  if (isLast(word.slice(1))) return ["f", "last"]
  if (isFirst(word.slice(0, -1))) return ["first", "l"]
  for (let cut = 2; cut <= word.length - 2; cut++) {
    if (isFirst(word.slice(0, cut)) && isLast(word.slice(cut))) return ["first", "last"]
  }
  return ["word"]
}

const cased = (role: Role, run: string) => {
  if (run.length > 1 && run === run.toUpperCase()) return `{${role.toUpperCase()}}`
  if (run[0] === run[0]!.toUpperCase()) return `{${role.charAt(0).toUpperCase()}${role.slice(1)}}`
  return `{${role}}`
}

interface ParsedHandle {
  readonly template: string
  /** The name parts, to find the locale. */
  readonly names: ReadonlyArray<string>
}

/** A handle's template; undefined for one with characters other than ASCII letters, digits and `._-+@`. */
const parseHandle = (handle: string): ParsedHandle | undefined => {
  if (!/^[A-Za-z0-9._\-+@]+$/.test(handle)) return undefined
  const runs = handle.match(/[A-Za-z]+|[0-9]+|[^A-Za-z0-9]+/g) ?? []
  let template = ""
  let letterRuns = 0
  const names: Array<string> = []
  for (const run of runs) {
    if (/^[A-Za-z]/.test(run)) {
      const roles = rolesOf(run, letterRuns++)
      if (roles.includes("first") || roles.includes("last")) names.push(run.toLowerCase())
      template += roles.map((role) => cased(role, run)).join("")
    } else if (/^[0-9]/.test(run)) {
      template += `{d${Math.min(run.length, 6)}}`
    } else {
      template += run.replace(/[{}]/g, "")
    }
  }
  return { template, names }
}

const learnHandles = (handles: ReadonlyArray<string>, context: LearnContext, fallback: string) => {
  const templates: Array<string> = []
  const locales: Array<string> = []
  for (const handle of handles) {
    const parsed = parseHandle(handle)
    if (parsed === undefined) continue
    templates.push(parsed.template)
    const locale = likeliestLocale(parsed.names, foldedAnyNameIndex(), nameLocales)
    if (locale !== undefined) locales.push(locale)
  }
  return {
    handles: orDefault(heldMix(templates, (template) => template, context.k), fallback),
    locales: orDefault(heldMix(locales, (code) => code, context.k), "en")
  }
}

export const learnEmail = (values: ReadonlyArray<string>, context: LearnContext): EmailGenerator => {
  const addresses = values.map((value) => value.trim()).filter((value) => value.lastIndexOf("@") > 0)
  const locals = addresses.map((address) => address.slice(0, address.lastIndexOf("@")))
  const domains = addresses.map((address) => address.slice(address.lastIndexOf("@") + 1).toLowerCase())
  const domainRows = countBy(domains, (domain) => domain)
  const held: Array<Held<string>> = [...domainRows.entries()]
    .filter(([domain, rows]) => rows >= context.k && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([value, rows]) => ({ value, rows }))
  const heldRows = held.reduce((sum, entry) => sum + entry.rows, 0)
  return {
    _tag: "email",
    ...learnHandles(locals, context, defaultEmailHandle),
    domains: held,
    freeDomainRows: held.length === 0 ? Math.max(1, domains.length - heldRows) : domains.length - heldRows
  }
}

const defaultEmailHandle = "{first}.{last}"
const defaultUsernameHandle = "{first}_{last}{d2}"

export const defaultEmail: EmailGenerator = { _tag: "email", locales: [{ value: "en", rows: 1 }], handles: [{ value: defaultEmailHandle, rows: 1 }], domains: [], freeDomainRows: 1 }

export const learnUsername = (values: ReadonlyArray<string>, context: LearnContext): UsernameGenerator => ({
  _tag: "username",
  ...learnHandles(values.map((value) => value.trim()), context, defaultUsernameHandle)
})

export const defaultUsername: UsernameGenerator = { _tag: "username", locales: [{ value: "en", rows: 1 }], handles: [{ value: defaultUsernameHandle, rows: 1 }] }

/**
 * A name part as an address writes it; names in other scripts fold to nothing and take an English one instead.
 * Remembered: a locale has a few thousand names, and Unicode normalisation is most of an address's cost otherwise.
 */
const foldCache = new Map<string, string>()
const foldName = (name: string) => {
  let ascii = foldCache.get(name)
  if (ascii === undefined) {
    ascii = asciiFold(name)
    if (foldCache.size < 200_000) foldCache.set(name, ascii)
  }
  return ascii
}
const folded = (name: string, fallback: () => string) => {
  const ascii = foldName(name)
  return ascii !== "" ? ascii : foldName(fallback())
}

type Part = (lists: NameLists) => string

/** A template's parts, each a function of the locale's name lists: names, initials, words, digits and literal text. */
const compileHandle = (template: string, context: CompileContext): ReadonlyArray<Part> => {
  const { draws } = context
  const english = nameLists("en")
  const words = englishWords()
  return template
    .split(/(\{[A-Za-z0-9]+\})/)
    .filter((part) => part !== "")
    .map((part): Part => {
      const match = /^\{([A-Za-z]+)(\d*)\}$/.exec(part)
      if (match === null) return () => part
      const name = match[1]!
      const role = name.toLowerCase()
      const casing = name.length > 1 && name === name.toUpperCase() ? "upper" : name[0] === name[0]!.toUpperCase() ? "title" : "lower"
      const draw: Part =
        role === "d"
          ? () => draws.digits(Number(match[2] || "1"))
          : role === "first" || role === "f"
            ? (lists) => folded(draws.pick(lists.first(undefined)), () => draws.pick(english.first(undefined)))
            : role === "last" || role === "l"
              ? (lists) => folded(draws.pick(lists.last(undefined)), () => draws.pick(english.last(undefined)))
              : () => draws.pick(words)
      const sized: Part = role === "f" || role === "l" ? (lists) => draw(lists).charAt(0) : draw
      if (casing === "upper") return (lists) => sized(lists).toUpperCase()
      if (casing === "title") {
        return (lists) => {
          const text = sized(lists)
          return text.charAt(0).toUpperCase() + text.slice(1)
        }
      }
      return sized
    })
}

const handleSource = (generator: { readonly locales: EmailGenerator["locales"]; readonly handles: EmailGenerator["handles"] }, context: CompileContext) => {
  const pickLists = context.draws.weighted(generator.locales.map(({ value: code, rows }) => ({ value: nameLists(code), rows })))
  const pickTemplate = context.draws.weighted(generator.handles.map(({ value, rows }) => ({ value: compileHandle(value, context), rows })))
  return () => {
    const lists = pickLists()
    let handle = ""
    for (const part of pickTemplate()) handle += part(lists)
    return handle
  }
}

/** A local part an address may have: no dot first, last or twice in a row (RFC 5321), at most 64 characters. */
const tidyLocal = (local: string) => {
  const tidy = local.replace(/\.{2,}/g, ".").replace(/^[._\-+]+|[._\-+]+$/g, "").slice(0, 64).replace(/[._\-+]+$/, "")
  return tidy === "" ? "user" : tidy
}

/** Whether a template's literal text can put separators first, last or side by side (parts are never empty). */
const needsTidy = (template: string) => {
  const literals = template.split(/\{[A-Za-z0-9]+\}/)
  return /^[._\-+]/.test(literals[0]!) || /[._\-+]$/.test(literals[literals.length - 1]!) || literals.some((literal) => /[._\-+]{2}/.test(literal))
}

export const compileEmail = (generator: EmailGenerator, context: CompileContext): CandidateSource => {
  const handles = handleSource(generator, context)
  const tidy = generator.handles.some(({ value }) => needsTidy(value))
  const freeDomains = allLocales.en.internet?.free_email ?? ["example.com"]
  const domainMix: Array<Held<string | null>> = [...generator.domains]
  if (generator.freeDomainRows > 0) domainMix.push({ value: null, rows: generator.freeDomainRows })
  const pickDomain = context.draws.weighted(domainMix)
  return () => {
    const local = handles()
    const text = `${tidy || local.length > 64 ? tidyLocal(local) : local}@${pickDomain() ?? context.draws.pick(freeDomains)}`
    return { text, key: text.toLowerCase() }
  }
}

export const emailKey = (value: string) => value.trim().toLowerCase()

export const compileUsername = (generator: UsernameGenerator, context: CompileContext): CandidateSource => {
  const handles = handleSource(generator, context)
  return () => {
    const text = handles()
    return { text, key: usernameKey(text) }
  }
}

/** `@Ada` and `ada` are one account. */
export const usernameKey = (value: string) => value.trim().toLowerCase().replace(/^@/, "")
