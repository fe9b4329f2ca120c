/** The page's whole stylesheet, inline: the report is one self-contained file, so system fonts only and no imports. */
export const reportStyles = `
:root{--ink:#111827;--muted:#6b7280;--line:#e5e7eb;--panel:#ffffff;--page:#f3f4f6;--accent:#1e3a8a}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--ink);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1200px;margin:0 auto;padding:24px}
header#summary{background:linear-gradient(135deg,#1e3a8a,#2563eb);color:#fff;border-radius:12px;padding:24px 28px;margin-bottom:20px}
header#summary h1{margin:0 0 12px;font-size:24px;font-weight:650}
dl.meta{display:flex;flex-wrap:wrap;gap:8px 28px;margin:0 0 20px}
dl.meta div{min-width:0}
dl.meta dt{font-size:11px;text-transform:uppercase;letter-spacing:.06em;opacity:.75}
dl.meta dd{margin:0;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;overflow-wrap:anywhere}
.headline{display:flex;flex-wrap:wrap;gap:24px;align-items:center}
.overall{padding-right:24px;border-right:1px solid rgba(255,255,255,.3)}
.overall-score{font-size:44px;font-weight:700;line-height:1.1}
.overall-caption{font-size:13px;opacity:.95}
header .stats .stat{background:rgba(255,255,255,.12);border-color:rgba(255,255,255,.2)}
header .stat-caption,header .stat-note{color:#dbeafe}
.stats{display:flex;flex-wrap:wrap;gap:12px}
.stat{border:1px solid var(--line);border-radius:8px;padding:10px 14px;min-width:130px}
.stat-value{font-size:20px;font-weight:650}
.stat-caption{font-size:12px;color:var(--muted)}
.stat-note{font-size:11px;color:var(--muted)}
section{background:var(--panel);border:1px solid var(--line);border-radius:12px;padding:20px 24px;margin-bottom:20px}
section h2{margin:0 0 12px;font-size:18px;color:var(--accent)}
section h3{margin:16px 0 8px;font-size:14px}
section > .stats{margin-bottom:12px}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:600;background:#e5e7eb;color:#374151;vertical-align:middle}
.level-excellent{background:#dcfce7;color:#166534}.level-good{background:#d1fae5;color:#065f46}
.level-fair{background:#fef3c7;color:#92400e}.level-poor{background:#fee2e2;color:#991b1b}
.severity-high{background:#fee2e2;color:#991b1b}.severity-medium{background:#fef3c7;color:#92400e}.severity-low{background:#e0e7ff;color:#3730a3}
ul.recommendations{list-style:none;margin:0;padding:0}
ul.recommendations>li{border-left:3px solid var(--line);padding:6px 12px;margin-bottom:8px}
ul.recommendations>li>p{margin:4px 0 0}
ul.recommendations>li.high{border-left-color:#ef4444}ul.recommendations>li.medium{border-left-color:#f59e0b}ul.recommendations>li.low{border-left-color:#6366f1}
ul.recommendations .area{margin-left:8px;font-weight:600;text-transform:capitalize}
ul.recommendations .title{margin-left:8px}
ul.recommendations .count{margin-left:8px;color:var(--muted);font-size:12px}
ul.findings{list-style:none;margin:6px 0 0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:2px 16px;font-size:12px}
ul.findings li{display:flex;gap:8px;align-items:baseline;padding:1px 0 1px 8px;border-left:2px solid var(--line)}
ul.findings li.high{border-left-color:#ef4444}ul.findings li.medium{border-left-color:#f59e0b}ul.findings li.low{border-left-color:#6366f1}
ul.findings .finding-columns{flex:0 0 auto;max-width:50%;font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600;overflow-wrap:anywhere}
ul.findings .finding-detail{color:var(--muted)}
.legend{display:flex;gap:16px;margin:4px 0 12px;font-size:12px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:6px;vertical-align:-1px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:16px}
figure{margin:0}
figure.distribution{border:1px solid var(--line);border-radius:8px;padding:10px 12px}
figure.distribution figcaption{display:flex;justify-content:space-between;align-items:baseline;gap:8px}
figure.distribution h3{margin:0;overflow-wrap:anywhere}
figcaption .muted{font-size:12px;white-space:nowrap}
svg text{font-family:inherit}
svg .axis{font-size:10px;fill:#4b5563}
svg .grid{stroke:#e5e7eb;stroke-width:1}
svg .baseline{stroke:#9ca3af;stroke-width:1}
svg .cell{font-size:10px;fill:#111827}
svg .cell.inverse{fill:#fff}
svg .square{stroke:#fff;stroke-width:1}
.matrices{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:16px;align-items:start}
svg.heatmap{max-width:100%;height:auto}
@media (max-width:900px){.matrices{grid-template-columns:minmax(0,1fr)}}
.matrices h3{margin:0 0 4px}
.scale{display:flex;align-items:center;gap:8px;font-size:12px;color:var(--muted);margin-bottom:12px}
.scale-bar{display:inline-block;width:160px;height:10px;border-radius:2px;border:1px solid var(--line)}
table{border-collapse:collapse;width:100%;margin:4px 0 8px;font-size:13px}
th{text-align:left;font-weight:600;color:#374151;background:#f9fafb;border-bottom:1px solid var(--line);padding:6px 10px}
td{border-bottom:1px solid #f3f4f6;padding:6px 10px;vertical-align:top;overflow-wrap:anywhere}
.meter{display:inline-block;width:70px;height:8px;background:#e5e7eb;border-radius:4px;overflow:hidden;vertical-align:middle}
.meter-fill{display:block;height:100%}
.meter-fill.high{background:#10b981}.meter-fill.medium{background:#f59e0b}.meter-fill.low{background:#ef4444}
.privacy-score{font-size:15px;margin-bottom:8px}
.verdict{border-radius:8px;padding:10px 14px;margin-bottom:12px;border:1px solid}
.verdict-safe{background:#ecfdf5;border-color:#10b981;color:#065f46}.verdict-unsafe{background:#fef2f2;border-color:#ef4444;color:#991b1b}
.check-passed{background:#dcfce7;color:#166534}.check-failed{background:#fee2e2;color:#991b1b}
.check-not_run{background:#fef3c7;color:#92400e}.check-not_applicable{background:#f3f4f6;color:#4b5563}
footer{color:var(--muted);font-size:12px;text-align:center;padding:8px 0 24px}
@media print{body{background:#fff}section,header#summary{break-inside:avoid}}
`
