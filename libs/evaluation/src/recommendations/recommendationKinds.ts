/** The rules that make recommendations: one kind per rule, whatever column it fires on. */
export type RecommendationKind =
  | "column_shape"
  | "categories_not_synthesised"
  | "missing_share"
  | "pair_trend"
  | "out_of_range"
  | "unknown_categories"
  | "table_structure"
  | "real_values_disclosed"
  | "rare_values_disclosed"
  | "rare_values_above_chance"
  | "attribute_inference"
  | "membership_undecided"
  | "checks_not_run"
  | "exact_copies"
  | "near_copies"
  | "close_to_real_rows"
  | "memorisation"
  | "membership_inference"
  | "columns_not_scored"
  | "no_issue"

interface KindWording {
  /** A heading for the kind, e.g. "Distributions differ". */
  readonly title: string
  /**
   * What the kind found on several columns, worded around `columns` ("columns a, b and c", or "these columns" where
   * a list follows). Only the kinds that fire per column or pair have one; the others fire once per evaluation.
   */
  readonly finding?: (columns: string, context: string) => string
  /**
   * The columns a finding is about, of those it names; the others are its context (the attribute attack names the
   * quasi-identifiers it knows and, last, the column it guesses). All of them by default.
   */
  readonly subject?: (columns: ReadonlyArray<string>) => ReadonlyArray<string>
}

export const recommendationKinds: Readonly<Record<RecommendationKind, KindWording>> = {
  column_shape: {
    title: "Distributions differ",
    finding: (columns) => `the synthetic distribution differs from the real one in ${columns}`
  },
  categories_not_synthesised: {
    title: "Real categories lost",
    finding: (columns) => `real categories never appear in the synthetic data of ${columns} (rare categories get lost)`
  },
  missing_share: {
    title: "Missing values differ",
    finding: (columns) => `the share of missing values differs between the real and the synthetic data in ${columns}`
  },
  pair_trend: {
    title: "Relationships not kept",
    finding: (columns) => `the relationships between pairs of ${columns} are not kept`
  },
  out_of_range: {
    title: "Values outside the real range",
    finding: (columns) => `synthetic values lie outside the real range in ${columns}`
  },
  unknown_categories: {
    title: "Values that are not real categories",
    finding: (columns) => `synthetic values are not real categories in ${columns}`
  },
  table_structure: { title: "Table structure differs" },
  real_values_disclosed: {
    title: "Real values in identifier columns",
    finding: (columns) => `output values are real values of ${columns}`
  },
  rare_values_disclosed: {
    title: "Rare real values in the output",
    finding: (columns) => `output values of ${columns} are values so rare among the real rows that they point to the people who hold them`
  },
  rare_values_above_chance: {
    title: "Rare real values reproduced",
    finding: (columns) => `output values of ${columns} land on rare real values more often than real rows the generator never saw do`
  },
  attribute_inference: {
    title: "Attributes guessed from quasi-identifiers",
    finding: (columns, context) =>
      `knowing ${context}, an attacker guesses ${columns} of the training rows better than of rows the generator never saw`,
    subject: (columns) => columns.slice(-1)
  },
  membership_undecided: { title: "Membership attack undecided" },
  checks_not_run: { title: "Privacy checks that could not run" },
  exact_copies: { title: "Exact copies of real rows" },
  near_copies: { title: "Near copies of real rows" },
  close_to_real_rows: { title: "Rows close to real rows" },
  memorisation: { title: "Training rows memorised" },
  membership_inference: { title: "Membership inference" },
  columns_not_scored: { title: "Columns not scored" },
  no_issue: { title: "No issue found" }
}
