import {
  type ColumnHandling,
  type ColumnType,
  type FieldError,
  type GenerationRequest,
  protectionBounds,
  type ProtectionSettings
} from "@synth/contracts"

const handlings: ReadonlyArray<ColumnHandling> = ["fake", "drop", "keep", "hash"]

/** Faked values exist for text and whole-number columns (identifiers, personal types) and for dates (birth dates). */
const fakeable: ReadonlySet<ColumnType> = new Set(["string", "integer", "date"])

export interface DatasetColumn {
  readonly name: string
  readonly type: ColumnType
}

export interface ValidPrivacy {
  /** Column name → the handling asked for. Built without a prototype: column names are data (`__proto__` too). */
  readonly columns: Readonly<Record<string, ColumnHandling>>
  readonly protection: ProtectionSettings
}

const listed = (names: ReadonlyArray<string>) =>
  names.length <= 12 ? names.join(", ") : `${names.slice(0, 12).join(", ")} and ${names.length - 12} more`

const columnProblems = (
  overrides: NonNullable<GenerationRequest["columns"]>,
  dataset: ReadonlyArray<DatasetColumn>,
  into: Record<string, ColumnHandling>
): Array<FieldError> => {
  const types = new Map(dataset.map((column) => [column.name, column.type]))
  const problems: Array<FieldError> = []
  for (const [name, override] of Object.entries(overrides)) {
    const type = types.get(name)
    if (type === undefined) {
      problems.push({
        field: `columns.${name}`,
        message: `is not a column of the dataset; its columns are ${listed(dataset.map((column) => column.name))}`
      })
      continue
    }
    const handling = handlings.find((candidate) => candidate === override.handling)
    if (handling === undefined) {
      problems.push({ field: `columns.${name}.handling`, message: `must be one of ${handlings.join(", ")}` })
    } else if (handling === "fake" && !fakeable.has(type)) {
      problems.push({
        field: `columns.${name}.handling`,
        message: `fake makes text, whole-number or date values, and ${name} is a ${type} column: use drop, keep or hash`
      })
    } else {
      into[name] = handling
    }
  }
  if (problems.length === 0 && dataset.length > 0 && dataset.every((column) => into[column.name] === "drop")) {
    problems.push({
      field: "columns",
      message: "drops every column of the dataset, so there is nothing to generate: keep, fake or hash at least one"
    })
  }
  return problems
}

const protectionOf = (request: GenerationRequest["privacy"], problems: Array<FieldError>): ProtectionSettings => {
  const asked = request ?? {}
  const threshold = asked.rare_category_threshold ?? protectionBounds.rareCategoryThreshold.default
  const { max, min } = protectionBounds.rareCategoryThreshold
  if (!(Number.isSafeInteger(threshold) && threshold >= min && threshold <= max)) {
    problems.push({
      field: "privacy.rare_category_threshold",
      message: `must be a whole number from ${min} to ${max} (got ${JSON.stringify(threshold)})`
    })
  }
  const share = asked.holdout_share ?? protectionBounds.holdoutShare.default
  const bounds = protectionBounds.holdoutShare
  if (!(Number.isFinite(share) && share >= bounds.min && share <= bounds.max)) {
    problems.push({
      field: "privacy.holdout_share",
      message: `must be a number from ${bounds.min} to ${bounds.max} (got ${JSON.stringify(share)}): the ` +
        "membership-inference attack of every evaluation needs rows the model did not see"
    })
  }
  return {
    rareCategoryThreshold: threshold,
    valueProtection: asked.value_protection ?? true,
    rareCategoryProtection: asked.rare_category_protection ?? true,
    similarityFilter: asked.similarity_filter ?? true,
    holdoutShare: share
  }
}

/**
 * The request's `columns` overrides and `privacy` settings (docs/privacy.md), checked against the dataset's columns.
 * Every problem is named by its field; the caller reports them with the request's other problems.
 */
export const validatePrivacy = (
  request: Pick<GenerationRequest, "columns" | "privacy">,
  dataset: ReadonlyArray<DatasetColumn>
): { readonly problems: ReadonlyArray<FieldError>; readonly valid: ValidPrivacy } => {
  const columns = Object.create(null) as Record<string, ColumnHandling>
  const problems = columnProblems(request.columns ?? {}, dataset, columns)
  const protection = protectionOf(request.privacy, problems)
  return { problems, valid: { columns, protection } }
}

/** The columns a request keeps as they are: the response warns that a personal one would publish real values. */
export const keptColumns = (valid: ValidPrivacy): ReadonlyArray<string> =>
  Object.entries(valid.columns).filter(([, handling]) => handling === "keep").map(([name]) => name)
