import type { EvaluationResults } from "../../evaluationRun.ts"
import { groupRecommendations, groupSentence, type RecommendationGroup } from "../../recommendations/groupRecommendations.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { section } from "./layout.ts"

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

const counted = (group: RecommendationGroup): string => {
  const subjects = group.findings.length
  if (subjects === 1) return ""
  const pairs = group.findings.every(({ columns }) => columns.length === 2)
  return `<span class="count">${subjects} ${pairs ? "pairs" : "columns"}</span>`
}

/**
 * A group of several findings says what it found and what to do once, then names each column once with its own
 * figures; a group of one is its recommendation's sentence, which names its columns itself.
 */
const groupItem = (group: RecommendationGroup): string => {
  const head = `<div class="recommendation-head"><span class="badge severity-${group.severity}">${group.severity}</span>` +
    `<span class="area">${escapeHtml(group.area)}</span><strong class="title">${escapeHtml(group.title)}</strong>${counted(group)}</div>`
  const sentence = group.findings.length > 1 ? groupSentence(group, "these columns") : null
  const body = sentence === null
    ? `<p>${escapeHtml(capitalised(group.message))}</p>`
    : `<p>${escapeHtml(capitalised(sentence))}</p><ul class="findings">${group.findings.map((finding) =>
      `<li class="${finding.severity}"><span class="finding-columns">${escapeHtml(finding.columns.join(" × "))}</span>` +
      `<span class="finding-detail">${escapeHtml(finding.detail)}</span></li>`
    ).join("")}</ul>`
  return `<li class="${group.severity}"${group.kind === null ? "" : ` data-kind="${group.kind}"`}>${head}${body}</li>`
}

/**
 * What to do, one entry per kind of finding, most severe first. Grouped here from the stored recommendations rather
 * than read from `recommendationGroups`, so results stored before the groups existed read the same way.
 */
export const recommendationsSection = (results: EvaluationResults): string => {
  const groups = groupRecommendations(results.summary.recommendations)
  if (groups.length === 0) {
    return section("recommendations", "Recommendations", `<p class="muted">No recommendations: every part is within its thresholds.</p>`)
  }
  const findings = groups.reduce((sum, group) => sum + group.findings.length, 0)
  const note = `<p class="muted">${findings} ${findings === 1 ? "finding" : "findings"} in ${groups.length} ` +
    `${groups.length === 1 ? "recommendation" : "recommendations"}, most severe first; the figures above show each of them.</p>`
  return section("recommendations", "Recommendations", note + `<ul class="recommendations">${groups.map(groupItem).join("")}</ul>`)
}
