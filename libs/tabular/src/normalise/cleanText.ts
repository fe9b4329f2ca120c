/**
 * Cells that stand for "no value". Compared after trimming and case-insensitively; none is longer than four
 * characters, which lets the check skip lower-casing every other cell.
 */
const missingTokens = new Set(["", "na", "n/a", "null", "nan", "none", "-"])
const longestMissingToken = 4

export const isMissingToken = (trimmed: string): boolean =>
  trimmed.length <= longestMissingToken && missingTokens.has(trimmed.toLowerCase())
