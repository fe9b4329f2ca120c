#!/usr/bin/env node
// Runs the benchmarks in test/bench one after another: every `*.bench.ts` is a plain program run by the project's Node, which strips the types itself.
// `npm run bench -- <name>` runs the benchmark of that name (test/bench/<name>.bench.ts); any other text, the files
// whose path contains it.
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const benchDir = join(root, "test", "bench")
const filters = process.argv.slice(2)

const all = readdirSync(benchDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".bench.ts"))
  .map((entry) => relative(root, join(entry.parentPath ?? entry.path, entry.name)))
  .sort()
const nameOf = (file) => file.split("/").at(-1).replace(/\.bench\.ts$/, "")
// A filter that is a benchmark's name runs that one (`load` is not also `upload`); any other, every path containing it.
const files = filters.length === 0
  ? all
  : all.filter((file) => filters.some((filter) => all.some((candidate) => nameOf(candidate) === filter) ? nameOf(file) === filter : file.includes(filter)))

if (files.length === 0) {
  console.log(`no benchmarks in ${relative(root, benchDir)} match ${filters.join(" ") || "*.bench.ts"}`)
  process.exit(filters.length === 0 ? 0 : 1)
}

const failed = []
for (const file of files) {
  console.log(`\n▶ ${file}`)
  const started = performance.now()
  const result = spawnSync(process.execPath, [file], { cwd: root, stdio: "inherit" })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`${result.status === 0 ? "✓" : "✗"} ${file} (${seconds} s)`)
  if (result.status !== 0) failed.push(file)
}
if (failed.length > 0) {
  console.error(`\n${failed.length} benchmark(s) failed: ${failed.join(", ")}`)
  process.exit(1)
}
