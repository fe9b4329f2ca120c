import type { EvaluationResults } from "../evaluationRun.ts"
import { reportContentSecurityPolicy } from "./contentSecurityPolicy.ts"
import { escapeHtml } from "./escapeHtml.ts"
import { reportStyles } from "./reportStyles.ts"
import { correlationsSection } from "./sections/correlationsSection.ts"
import { diagnosticSection } from "./sections/diagnosticSection.ts"
import { distributionsSection } from "./sections/distributionsSection.ts"
import { privacySection } from "./sections/privacySection.ts"
import { qualitySection } from "./sections/qualitySection.ts"
import { recommendationsSection } from "./sections/recommendationsSection.ts"
import { type ReportHeader, summarySection } from "./sections/summarySection.ts"
import { utilitySection } from "./sections/utilitySection.ts"

export interface EvaluationReportInput extends ReportHeader {
  readonly results: EvaluationResults
}


/**
 * An evaluation as one self-contained HTML page: the headline figures, the distributions and correlations real vs
 * synthetic, privacy and ML utility, the recommendations grouped by kind, then the per-column details. Inline CSS and
 * SVG charts, no scripts, no external requests.
 * Every text that comes from data (column names, categories, ids) is escaped. Equal inputs give equal pages.
 */
export const renderEvaluationReport = (input: EvaluationReportInput): string => {
  const { results } = input
  // The figures first, then what to do about them: a reader sees real beside synthetic before any advice, and the
  // recommendations (one per kind of finding) point back at charts already seen. The per-column tables come last.
  const body = [
    summarySection(input, results),
    distributionsSection(results),
    correlationsSection(results),
    privacySection(results),
    utilitySection(results),
    recommendationsSection(results),
    qualitySection(results),
    diagnosticSection(results)
  ].join("\n")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${reportContentSecurityPolicy}">
<meta name="referrer" content="no-referrer">
<title>Evaluation report ${escapeHtml(input.evaluationId)}</title>
<style>${reportStyles}</style>
</head>
<body>
<main>
${body}
<footer>Evaluation ${escapeHtml(input.evaluationId)} · generated ${escapeHtml(input.createdAt)}</footer>
</main>
</body>
</html>
`
}
