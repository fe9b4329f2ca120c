import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { FakeGenerator, PathSegment, UrlFormat } from "../FakePlan.ts"
import { seededFaker } from "../locales.ts"
import { asciiFold } from "../masks.ts"
import { countBy, heldMix, orDefault } from "../mix.ts"

/**
 * URLs (personal pages, profiles): scheme, host when ≥ k rows share it (else one of faker's domains), and the path:
 * a segment ≥ k rows of the host share at its place is kept (`/in/`, `/users/`), others become a slug of names or
 * words, digits or a word. Query strings and fragments are not kept: they are where sessions and ids hide.
 */
type UrlGenerator = Extract<FakeGenerator, { _tag: "url" }>

interface ParsedUrl {
  readonly scheme: "http" | "https"
  readonly host: string
  readonly www: boolean
  readonly segments: ReadonlyArray<string>
  readonly trailingSlash: boolean
}

const parseUrl = (value: string): ParsedUrl | undefined => {
  try {
    const url = new URL(value.trim())
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
    const host = url.hostname.toLowerCase()
    return {
      scheme: url.protocol === "https:" ? "https" : "http",
      host: host.replace(/^www\./, ""),
      www: host.startsWith("www."),
      segments: url.pathname.split("/").filter((segment) => segment !== ""),
      trailingSlash: url.pathname.endsWith("/")
    }
  } catch {
    return undefined
  }
}

/** What a path segment that is not kept becomes: digits, a slug of its word count, or a word. */
const segmentClass = (segment: string): PathSegment => {
  if (/^\d+$/.test(segment)) return { digits: Math.min(segment.length, 12) }
  const words = segment.split(/[-_.]+/).filter((word) => word !== "")
  return words.length > 1 ? { slug: Math.min(words.length, 6) } : { word: true }
}

export const learnUrl = (values: ReadonlyArray<string>, context: LearnContext): UrlGenerator => {
  const parsed = values.map(parseUrl).filter((url): url is ParsedUrl => url !== undefined)
  const hostRows = countBy(parsed, (url) => url.host)
  const segmentRows = countBy(
    parsed.flatMap((url) => url.segments.map((segment, index) => `${url.host}|${index}|${segment}`)),
    (key) => key
  )
  const formats = parsed.map((url): UrlFormat => {
    const hostHeld = (hostRows.get(url.host) ?? 0) >= context.k
    return {
      scheme: url.scheme,
      host: hostHeld ? url.host : null,
      www: url.www,
      path: url.segments.slice(0, 8).map((segment, index) =>
        hostHeld && (segmentRows.get(`${url.host}|${index}|${segment}`) ?? 0) >= context.k ? { constant: segment } : segmentClass(segment)
      ),
      trailingSlash: url.trailingSlash && url.segments.length > 0
    }
  })
  return { _tag: "url", formats: orDefault(heldMix(formats, (format) => JSON.stringify(format), context.k), defaultFormat) }
}

const defaultFormat: UrlFormat = { scheme: "https", host: null, www: true, path: [{ slug: 2 }], trailingSlash: false }

export const defaultUrl: UrlGenerator = { _tag: "url", formats: [{ value: defaultFormat, rows: 1 }] }

export const compileUrl = (generator: UrlGenerator, context: CompileContext): CandidateSource => {
  const faker = seededFaker("en", context.draws.seed())
  const pick = context.draws.weighted(generator.formats)
  const word = () => asciiFold(faker.word.sample()) || "page"
  const slugWord = (index: number) => asciiFold(index === 0 ? faker.person.firstName() : index === 1 ? faker.person.lastName() : faker.word.sample()) || "page"
  const segment = (part: PathSegment) => {
    if ("constant" in part) return part.constant
    if ("digits" in part) return String(context.draws.integer(1, 9)) + context.draws.digits(part.digits - 1)
    if ("slug" in part) return Array.from({ length: part.slug }, (_, index) => slugWord(index)).join("-")
    return word()
  }
  return () => {
    const format = pick()
    const host = format.host ?? faker.internet.domainName()
    const path = format.path.map(segment).join("/")
    const text = `${format.scheme}://${format.www ? "www." : ""}${host}${path === "" ? "/" : `/${path}${format.trailingSlash ? "/" : ""}`}`
    return { text, key: urlKey(text) }
  }
}

/** Scheme, `www.`, case and a trailing slash do not make another page. */
export const urlKey = (value: string) => {
  const url = parseUrl(value)
  if (url === undefined) return value.trim().toLowerCase()
  return `${url.host}/${url.segments.join("/")}`.toLowerCase()
}
