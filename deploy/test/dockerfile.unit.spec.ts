// deploy/Dockerfile without a Docker engine: parsed instruction by instruction and checked for what matters when it
// is built elsewhere: pinned bases, a non-root user, an install that survives the lockfile issue, a health check,
// and commands that name files that exist.
import { describe, expect, it } from "@effect/vitest"
import { compiledDir, compiledEntryOf, services } from "../services.ts"
import { entryFilesOf, exists, read } from "./files.ts"

interface Instruction {
  readonly keyword: string
  readonly argument: string
}

/** Instructions with continuation lines joined and comments dropped. */
const instructions = (text: string): ReadonlyArray<Instruction> =>
  text
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [keyword = "", ...rest] = line.split(/\s+/)
      return { keyword: keyword.toUpperCase(), argument: rest.join(" ") }
    })

const dockerfile = instructions(read("deploy/Dockerfile"))
const all = (keyword: string) => dockerfile.filter((instruction) => instruction.keyword === keyword)
/** The instructions of the last stage: the image. */
const finalStage = dockerfile.slice(dockerfile.findLastIndex((instruction) => instruction.keyword === "FROM"))
/** The stage a `FROM ... AS name` starts, up to the next FROM. */
const stageNamed = (name: string) => {
  const start = dockerfile.findIndex((instruction) => instruction.keyword === "FROM" && instruction.argument.endsWith(` AS ${name}`))
  const end = dockerfile.findIndex((instruction, index) => index > start && instruction.keyword === "FROM")
  return start < 0 ? [] : dockerfile.slice(start, end)
}

/** `["node", "x.ts"]` (exec form) or a shell command line. */
const commandParts = (argument: string): ReadonlyArray<string> =>
  argument.startsWith("[") ? (JSON.parse(argument) as ReadonlyArray<string>) : argument.split(/\s+/)

describe("deploy/Dockerfile", () => {
  it("builds FROM images pinned by tag, never latest, on the Node package.json pins", () => {
    const pinnedNode = /^>=(\d+\.\d+\.\d+)/.exec(JSON.parse(read("package.json")).engines.node)?.[1] ?? "none"
    const stages = all("FROM").map((instruction) => instruction.argument.split(/\s+/)[0]!)
    expect(stages.length).toBeGreaterThan(0)
    const stageNames = all("FROM").map((instruction) => instruction.argument.split(/\s+AS\s+/i)[1]).filter(Boolean)
    for (const image of stages.filter((candidate) => !stageNames.includes(candidate))) {
      expect(image).toMatch(/^[a-z0-9./_-]+(:[A-Za-z0-9._-]+|@sha256:[0-9a-f]{64})$/)
      expect(image).not.toMatch(/:latest$/)
      // The image runs the Node line the project pins, at the pinned patch.
      expect(image, `node:${pinnedNode}-…slim`).toMatch(new RegExp(`^node:${pinnedNode.replaceAll(".", "\\.")}-(bookworm-)?slim`))
    }
  })

  it("runs as a user other than root", () => {
    const users = all("USER")
    expect(users.length).toBeGreaterThan(0)
    const last = users.at(-1)!.argument.split(":")[0]
    expect(["root", "0"]).not.toContain(last)
    // USER comes after the last RUN, so nothing later runs as root.
    expect(dockerfile.findLastIndex((instruction) => instruction.keyword === "USER")).toBeGreaterThan(
      dockerfile.findLastIndex((instruction) => instruction.keyword === "RUN")
    )
  })

  it("installs with npm ci and falls back to npm install (DEPENDENCIES.md: npm ci fails on some lockfiles made here)", () => {
    const installs = all("RUN").filter((instruction) => instruction.argument.includes("npm ci"))
    expect(installs.length).toBeGreaterThan(0)
    for (const install of installs) {
      expect(install.argument).toMatch(/npm ci\b[^|&;]*\|\|\s*npm install\b/)
      // Otherwise a failed install still ends in a "successful" cache clean.
      expect(install.argument).toMatch(/^\(npm ci[^)]*\|\|[^)]*npm install[^)]*\)\s*(&&|$)/)
    }
  })

  it("compiles the services in a build stage, and the image takes only the output, without dev dependencies", () => {
    const build = stageNamed("build")
    expect(build.some((instruction) => instruction.keyword === "RUN" && instruction.argument === "node deploy/build.ts")).toBe(true)
    const copied = finalStage.filter((instruction) => instruction.keyword === "COPY" && instruction.argument.startsWith("--from=build "))
    expect(copied.map((instruction) => instruction.argument)).toEqual([`--from=build /app/${compiledDir} ./${compiledDir}`])
    const install = finalStage.find((instruction) => instruction.keyword === "RUN" && instruction.argument.includes("npm ci"))
    expect(install?.argument).toMatch(/npm ci --omit=dev\b[^|]*\|\|\s*npm install --omit=dev\b/)
  })

  it("checks /health on the service's PORT", () => {
    const healthcheck = all("HEALTHCHECK")
    expect(healthcheck).toHaveLength(1)
    expect(healthcheck[0]!.argument).toContain("/health")
    expect(healthcheck[0]!.argument).toContain("process.env.PORT")
  })

  it("starts a service whose entry file exists, and every service of deploy/services.ts has one", () => {
    const command = commandParts(all("CMD").at(-1)!.argument)
    // The gateway by default, compiled: no type stripper or transpiler loaded at run time.
    expect(command).toEqual(["node", compiledEntryOf(services.find((service) => service.name === "gateway")!)])
    for (const entry of entryFilesOf(command)) expect(exists(entry), entry).toBe(true)
    for (const service of services) expect(exists(service.entry), service.entry).toBe(true)
  })

  it("keeps node_modules, data and VCS state out of the build context", () => {
    const ignored = read("deploy/Dockerfile.dockerignore").split("\n").map((line) => line.trim())
    for (const pattern of ["**/node_modules", "**/data", ".git"]) expect(ignored).toContain(pattern)
  })
})
