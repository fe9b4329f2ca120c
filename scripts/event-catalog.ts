import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { diffSummary } from "./eventCatalog/diffSummary.ts"
import { renderEventCatalog } from "./eventCatalog/render.ts"

/**
 * Writes docs/events.md from the contracts. With `--check` it writes nothing and exits 1 when the committed file
 * differs from what the contracts render, printing what changed.
 */
const target = new URL("../docs/events.md", import.meta.url)
const rendered = renderEventCatalog()

if (process.argv.includes("--check")) {
  const committed = existsSync(target) ? readFileSync(target, "utf8") : ""
  if (committed !== rendered) {
    console.error(`docs/events.md is stale: ${diffSummary(committed, rendered)}`)
    console.error("Regenerate it with `npm run events:catalog`.")
    process.exit(1)
  }
  console.log("docs/events.md is up to date")
} else {
  writeFileSync(target, rendered)
  console.log("wrote docs/events.md")
}
