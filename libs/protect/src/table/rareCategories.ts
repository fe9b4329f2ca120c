import type { CategoricalColumn, Random } from "@synth/synth"

/**
 * Rare-category protection: a category held by fewer than k rows could single its holders out, so the model never
 * sees it. Each row holding one gets a frequent category instead, drawn in proportion to the frequent categories'
 * counts (the column's distribution over what may be published stays as it was); a string column's rare labels
 * leave its category list too, so no stored model holds them. With no frequent category at all, the rows become
 * missing. Boolean labels are not data (false/true) and stay listed.
 */
export const protectRareCategories = (
  column: CategoricalColumn,
  k: number,
  random: Random
): { readonly column: CategoricalColumn; readonly replacedRows: number } => {
  const counts = new Float64Array(column.categories.length)
  for (const code of column.codes) if (code >= 0) counts[code]!++
  const frequent = Array.from(counts.keys()).filter((code) => counts[code]! >= k)
  const rare = counts.some((count) => count > 0 && count < k)
  if (!rare) return { column, replacedRows: 0 }
  const cumulative = new Float64Array(frequent.length)
  let total = 0
  frequent.forEach((code, index) => {
    total += counts[code]!
    cumulative[index] = total
  })
  const draw = () => {
    const target = random.next() * total
    let index = 0
    while (cumulative[index]! <= target) index++
    return frequent[index]!
  }
  const keepsLabels = column.type === "boolean"
  const newCode = new Int32Array(column.categories.length).fill(-1)
  frequent.forEach((code, index) => (newCode[code] = keepsLabels ? code : index))
  const codes = new Int32Array(column.codes.length)
  let replacedRows = 0
  for (let row = 0; row < codes.length; row++) {
    const code = column.codes[row]!
    if (code < 0) {
      codes[row] = -1
    } else if (counts[code]! >= k) {
      codes[row] = newCode[code]!
    } else {
      replacedRows++
      codes[row] = frequent.length === 0 ? -1 : newCode[draw()]!
    }
  }
  const categories = keepsLabels ? column.categories : frequent.map((code) => column.categories[code]!)
  return { column: { ...column, categories, codes }, replacedRows }
}
