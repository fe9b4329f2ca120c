import type { ColumnHandling, ColumnRole } from "@synth/contracts"
import type { PiiType } from "@synth/pii"
import type { ColumnType } from "@synth/synth"

/**
 * What a generation does with each column of the table, decided before training from the dataset's latest scan and
 * the request's overrides. Names, types and roles only: a plan never holds a value of the data.
 * Roles (contracts' ColumnRole):
 * - `identifier`: a key, unique per row (the scan's identifiers).
 * - `direct_identifier`: names a person by itself (the scan's personal types: names, e-mails, phones, national ids,
 *   card numbers, IBANs, street addresses, IPs...).
 * - `quasi_identifier`: singles people out in combination (ZIP codes, cities, birth dates, the scan's
 *   quasi-identifier sets).
 * - `data`: everything else.
 *
 * Handlings (contracts' ColumnHandling):
 * - `fake`: never learned; the output holds fresh values of the same kind and shape, none of them real.
 * - `drop`: not learned and not in the output.
 * - `keep`: learned (with the value and rare-category protections); on an identifier or direct identifier an explicit
 *   opt-in that publishes real values, which the response and the record warn about.
 * - `hash`: replaced by a keyed hash before training, then learned: pseudonyms, consistent within the generator.
 */
export type { ColumnHandling, ColumnRole }

/** The kind of value a faked column gets: the scan's personal type, or a fresh key for an identifier. */
export type FakeKind = PiiType | "identifier"

export interface ColumnPlan {
  readonly name: string
  readonly type: ColumnType
  readonly role: ColumnRole
  readonly handling: ColumnHandling
  /** The scan's type of a personal column (`email_address`...); null for identifiers found by uniqueness and for data. */
  readonly piiType: PiiType | null
  /** Whether the handling was the request's (an override) or the role's default. */
  readonly handlingSource: "request" | "default"
}
