/** How many of each line a text holds, so moved lines do not count as changed. */
const lineCounts = (text: string) => {
  const counts = new Map<string, number>()
  for (const line of text.split("\n")) counts.set(line, (counts.get(line) ?? 0) + 1)
  return counts
}

const linesMissingFrom = (from: string, other: string) => {
  const remaining = lineCounts(other)
  return from.split("\n").filter((line) => {
    const left = remaining.get(line) ?? 0
    remaining.set(line, left - 1)
    return left === 0
  })
}

/**
 * A short account of how the committed file differs from the rendered one: the first line that differs and the
 * lines only one of them has (the first few of each), enough to see what changed without a diff tool.
 */
export const diffSummary = (committed: string, rendered: string, shown = 8) => {
  const committedLines = committed.split("\n")
  const renderedLines = rendered.split("\n")
  const firstDifference = committedLines.findIndex((line, index) => line !== renderedLines[index])
  const removed = linesMissingFrom(committed, rendered)
  const added = linesMissingFrom(rendered, committed)
  const sample = (sign: string, lines: ReadonlyArray<string>) =>
    lines.slice(0, shown).map((line) => `  ${sign} ${line}`).concat(lines.length > shown ? [`  … ${lines.length - shown} more`] : [])
  return [
    `first difference at line ${(firstDifference === -1 ? committedLines.length : firstDifference) + 1}; ` +
      `${removed.length} line(s) only in the committed file, ${added.length} only in the rendered catalog`,
    ...sample("-", removed),
    ...sample("+", added)
  ].join("\n")
}
