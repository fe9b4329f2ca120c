/**
 * Learned mixes: how many real rows hold each format, locale or domain. An entry held by fewer than k rows could single
 * its holder out, so it is not learned: its rows are counted with the most common entry instead.
 */

export interface Held<A> {
  readonly value: A
  readonly rows: number
}

/**
 * The entries held by at least `k` of the given rows (keyed by `keyOf`), most held first (ties by key, so the plan
 * does not depend on row order); rows of rarer entries join the most common. Empty when no entry reaches k.
 */
export const heldMix = <A>(items: Iterable<A>, keyOf: (item: A) => string, k: number): Array<Held<A>> => {
  const counts = new Map<string, { value: A; rows: number }>()
  let total = 0
  for (const item of items) {
    total++
    const key = keyOf(item)
    const entry = counts.get(key)
    if (entry === undefined) counts.set(key, { value: item, rows: 1 })
    else entry.rows++
  }
  const held = [...counts.entries()]
    .filter(([, entry]) => entry.rows >= Math.max(1, k))
    .sort(([keyA, a], [keyB, b]) => b.rows - a.rows || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0))
    .map(([, entry]) => ({ value: entry.value, rows: entry.rows }))
  if (held.length === 0) return []
  const heldRows = held.reduce((sum, entry) => sum + entry.rows, 0)
  held[0] = { value: held[0]!.value, rows: held[0]!.rows + (total - heldRows) }
  return held
}

/** How many items share each key, for the callers that threshold on several levels. */
export const countBy = <A>(items: Iterable<A>, keyOf: (item: A) => string): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const item of items) {
    const key = keyOf(item)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

/** A mix with a single entry: a type's default when nothing was learned. */
export const only = <A>(value: A): Array<Held<A>> => [{ value, rows: 1 }]

/** The learned mix, or the default when nothing reached k. */
export const orDefault = <A>(mix: Array<Held<A>>, fallback: A): Array<Held<A>> => (mix.length > 0 ? mix : only(fallback))

/**
 * For each text, the longest of its leading parts (of the given lengths, longest first) that ≥ k texts share: a card's
 * bank or network, a phone's area code, a ZIP's area. Texts sharing none are left out (their rows get drawn prefixes).
 */
export const heldPrefixes = (texts: ReadonlyArray<string>, lengths: ReadonlyArray<number>, k: number): Array<Held<string>> => {
  if (lengths.length === 0) return []
  const counts = countBy(texts.flatMap((text) => lengths.map((length) => text.slice(0, length))), (prefix) => prefix)
  const chosen = texts
    .map((text) => lengths.map((length) => text.slice(0, length)).find((prefix) => (counts.get(prefix) ?? 0) >= k))
    .filter((prefix): prefix is string => prefix !== undefined)
  return heldMix(chosen, (prefix) => prefix, 1)
}
