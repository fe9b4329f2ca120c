import { escapeHtml } from "../escapeHtml.ts"

/** One titled part of the page; `body` is markup already escaped by its maker. */
export const section = (id: string, title: string, body: string): string =>
  `<section id="${id}"><h2>${escapeHtml(title)}</h2>${body}</section>`

/** A table of cells that are markup already escaped by their maker. */
export const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>, className = ""): string =>
  `<table class="${className}"><thead><tr>${head.map((cell) => `<th>${escapeHtml(cell)}</th>`).join("")}</tr></thead>` +
  `<tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("")}</tbody></table>`

/** A headline figure with its caption. */
export const stat = (caption: string, value: string, note = ""): string =>
  `<div class="stat"><div class="stat-value">${value}</div><div class="stat-caption">${escapeHtml(caption)}</div>` +
  (note === "" ? "" : `<div class="stat-note">${escapeHtml(note)}</div>`) + `</div>`

/** A quality level (Excellent, Good, Fair, Poor) as a coloured badge; a dash without one. */
export const levelBadge = (level: string | null): string =>
  level === null ? `<span class="badge">—</span>` : `<span class="badge level-${escapeHtml(level.toLowerCase())}">${escapeHtml(level)}</span>`

/** A 0 … 1 score as a small horizontal gauge beside its percentage. */
export const meter = (score: number | null, text: string): string =>
  score === null || Number.isNaN(score)
    ? `<span class="muted">${escapeHtml(text)}</span>`
    : `<span class="meter"><span class="meter-fill ${score >= 0.8 ? "high" : score >= 0.5 ? "medium" : "low"}" style="width:${(Math.max(0, Math.min(1, score)) * 100).toFixed(1)}%"></span></span> ${escapeHtml(text)}`
