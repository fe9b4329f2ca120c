import { bySeverity, type Recommendation, type StoredRecommendation } from "./Recommendation.ts"
import { type RecommendationKind, recommendationKinds } from "./recommendationKinds.ts"

/** One finding of a group: the column (or pair) it is about and its figures. */
export interface RecommendationFinding {
  readonly severity: Recommendation["severity"]
  /** The finding's subject: a column, a pair, the column an attack guesses. */
  readonly columns: ReadonlyArray<string>
  readonly detail: string
}

/** Every finding of one kind as one recommendation: what was found, on which columns (each named once), what to do. */
export interface RecommendationGroup {
  /** Null for a recommendation of results stored before kinds existed: it stands alone, as it was. */
  readonly kind: RecommendationKind | null
  readonly area: Recommendation["area"]
  /** Its most severe finding's. */
  readonly severity: Recommendation["severity"]
  readonly title: string
  /** Every column its findings name, each once, the most severe finding's first. */
  readonly columns: ReadonlyArray<string>
  /** One sentence naming each column once, with what to do; a group of one finding keeps its recommendation's message. */
  readonly message: string
  readonly action: string
  /** Most severe first. */
  readonly findings: ReadonlyArray<RecommendationFinding>
}

const distinct = (names: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set(names)]

/** "a", "a and b", "a, b and c". */
export const listed = (names: ReadonlyArray<string>): string =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`

/** "column a", "columns a, b and c". */
export const columnsPhrase = (names: ReadonlyArray<string>): string =>
  `${names.length === 1 ? "column" : "columns"} ${listed(names)}`

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * The group's finding worded around `columns` (by default its columns by name; the report says "these columns" above
 * its list of figures), followed by what to do; null for a kind that fires once per evaluation.
 */
export const groupSentence = (group: RecommendationGroup, columns?: string): string | null => {
  const wording = group.kind === null ? undefined : recommendationKinds[group.kind].finding
  if (wording === undefined) return null
  const subjects = distinct(group.findings.flatMap((finding) => finding.columns))
  const context = group.columns.filter((column) => !subjects.includes(column))
  return `${wording(columns ?? columnsPhrase(subjects), listed(context))} — ${group.action}.`
}

const alone = (recommendation: StoredRecommendation): RecommendationGroup => ({
  kind: recommendation.kind ?? null,
  area: recommendation.area,
  severity: recommendation.severity,
  title: recommendation.kind === undefined ? capitalised(recommendation.area) : recommendationKinds[recommendation.kind].title,
  columns: distinct(recommendation.columns),
  message: recommendation.message,
  action: recommendation.action ?? "",
  findings: [{ severity: recommendation.severity, columns: recommendation.columns, detail: recommendation.detail ?? recommendation.message }]
})

const merged = (kind: RecommendationKind, members: ReadonlyArray<Recommendation>): RecommendationGroup => {
  const first = members[0]!
  if (members.length === 1) return alone(first)
  const wording = recommendationKinds[kind]
  const subject = wording.subject ?? ((columns: ReadonlyArray<string>) => columns)
  const group: RecommendationGroup = {
    kind,
    area: first.area,
    severity: first.severity,
    title: wording.title,
    columns: distinct(members.flatMap((member) => member.columns)),
    message: "",
    action: distinct(members.map((member) => member.action)).join("; "),
    findings: members.map((member) => ({ severity: member.severity, columns: subject(member.columns), detail: member.detail }))
  }
  return { ...group, message: groupSentence(group) ?? first.message }
}

const hasKind = (recommendation: StoredRecommendation): recommendation is Recommendation =>
  recommendation.kind !== undefined && recommendation.detail !== undefined && recommendation.action !== undefined

/**
 * One recommendation per kind of finding, most severe first: a rule that fired on 31 columns reads as one entry
 * naming the 31 columns once, with each column's figures among its findings. Kinds that fire once per evaluation
 * (copies, the membership attack, ...) and recommendations stored before kinds existed stay as they are.
 */
export const groupRecommendations = (recommendations: ReadonlyArray<StoredRecommendation>): ReadonlyArray<RecommendationGroup> => {
  const groups = new Map<string, { readonly kind: RecommendationKind | null; readonly members: Array<StoredRecommendation> }>()
  bySeverity(recommendations).forEach((recommendation, index) => {
    const groupable = hasKind(recommendation) && recommendationKinds[recommendation.kind].finding !== undefined
    const key = groupable ? recommendation.kind : `#${index}`
    const group = groups.get(key) ?? { kind: groupable ? recommendation.kind : null, members: [] }
    group.members.push(recommendation)
    groups.set(key, group)
  })
  // Members come most severe first, so a group's first member is its most severe and the map's order is the groups'.
  return [...groups.values()].map(({ kind, members }) =>
    kind === null ? alone(members[0]!) : merged(kind, members.filter(hasKind))
  )
}
