import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseAllDocuments } from "yaml"
import { compiledEntryOf, type ServiceDefinition, services } from "../services.ts"

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
export const deployDir = join(repoRoot, "deploy")
export const kubernetesDir = join(deployDir, "k8s")

export const read = (path: string) => readFileSync(join(repoRoot, path), "utf8")
export const exists = (path: string) => existsSync(join(repoRoot, path))

/** Every document of a YAML file; a syntax error or a warning fails the test that reads it. */
export const yamlDocuments = (path: string): ReadonlyArray<Record<string, unknown>> =>
  parseAllDocuments(read(path)).map((document) => {
    const problems = [...document.errors, ...document.warnings]
    if (problems.length > 0) throw new Error(`${path}: ${problems.map((problem) => problem.message).join("; ")}`)
    return document.toJS() as Record<string, unknown>
  })

export const kubernetesFiles = () =>
  readdirSync(kubernetesDir).filter((name) => name.endsWith(".yaml")).sort()

/** The names in the first column of every table in README.md (`A / B` rows name two settings). */
export const documentedSettings = (): ReadonlySet<string> => {
  const names = read("README.md")
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .flatMap((line) => (line.split("|")[1] ?? "").split("/"))
    .map((cell) => cell.trim().replace(/`/g, ""))
    .filter((cell) => /^[A-Z][A-Z0-9_]+$/.test(cell))
  return new Set(names)
}

/**
 * The repository's files a command line runs: a `.ts` file it names, or the source a compiled service's entry is
 * built from (`dist/services/x/main.mjs`, made by deploy/build.ts, from `services/x/src/main.ts`) among `definitions`.
 */
export const entryFilesOf = (
  command: ReadonlyArray<string>,
  definitions: ReadonlyArray<ServiceDefinition> = services
): ReadonlyArray<string> =>
  command.flatMap((part) => {
    const compiledFrom = definitions.find((service) => compiledEntryOf(service) === part)
    if (compiledFrom !== undefined) return [compiledFrom.entry]
    return part.endsWith(".ts") || part.endsWith(".mjs") ? [part] : []
  })
