#!/usr/bin/env node
// Installs dependencies when node_modules is missing or stale (runs as `prestart` and `pretest`).
//
// Stale means: the hash of every package.json (root and workspaces), package-lock.json and the platform differs from
// the one recorded in node_modules/.install-stamp after the last successful install. (Not the running Node's ABI:
// the first run on a fresh machine is the system's Node, later ones the project's; native modules here are N-API.)
// When it is stale:
//   - lockfile in sync with the package.json files and node_modules already holds exactly the locked tree
//     (npm's own node_modules/.package-lock.json says so): only record the stamp;
//   - lockfile in sync: `npm ci`, and `npm install` when that fails (npm ci fails on lockfiles made on these machines
//     when the registry lacks another platform's optional binary at the locked version);
//   - lockfile missing or out of sync: `npm install`, which also updates the lockfile.
//
// The project runs on the Node that package.json pins (`engines`, and the `node-linux-*` packages npm links as
// node_modules/.bin/node, first on the PATH of every npm script). A machine whose own Node is already that line, at
// the pinned patch or newer, keeps its own: the link is removed. Elsewhere (no binary for the platform, an older
// system Node) it says what is missing.
// Plain Node, no dependencies: it must work before anything is installed.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const nodeModules = join(root, "node_modules")
const stampFile = join(nodeModules, ".install-stamp")
const lockfilePath = join(root, "package-lock.json")
const lockDir = join(root, ".cache", "ensure-install.lock")
const dependencyFields = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]

const log = (message) => console.log(`[ensure-install] ${message}`)

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"))

const isDirectory = (path) => {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

const segmentPattern = (segment) =>
  new RegExp(`^${segment.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]")}$`)

// Expands npm workspace globs (`libs/*`, `packages/**`, literal folders) to folders holding a package.json.
const expandWorkspace = (base, segments) => {
  if (segments.length === 0) return existsSync(join(base, "package.json")) ? [base] : []
  const [segment, ...rest] = segments
  if (segment === "**") {
    const here = expandWorkspace(base, rest)
    const deeper = subfolders(base).flatMap((folder) => expandWorkspace(folder, segments))
    return [...here, ...deeper]
  }
  if (!/[*?]/.test(segment)) {
    const next = join(base, segment)
    return isDirectory(next) ? expandWorkspace(next, rest) : []
  }
  const pattern = segmentPattern(segment)
  return subfolders(base)
    .filter((folder) => pattern.test(folder.slice(base.length + 1)))
    .flatMap((folder) => expandWorkspace(folder, rest))
}

const subfolders = (base) =>
  readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith("."))
    .map((entry) => join(base, entry.name))

const workspaceFolders = (rootManifest) => {
  const patterns = Array.isArray(rootManifest.workspaces) ? rootManifest.workspaces : (rootManifest.workspaces?.packages ?? [])
  const folders = patterns
    .filter((pattern) => !pattern.startsWith("!"))
    .flatMap((pattern) => expandWorkspace(root, pattern.replace(/^\.\//, "").replace(/\/$/, "").split("/")))
  return [...new Set(folders.map((folder) => relative(root, folder).split(sep).join("/")))].sort()
}

const currentHash = (workspaces) => {
  const hash = createHash("sha256")
  hash.update(`${process.platform}-${process.arch}\n`)
  for (const folder of ["", ...workspaces]) {
    hash.update(`${folder}/package.json\n`)
    hash.update(readFileSync(join(root, folder, "package.json")))
  }
  hash.update("package-lock.json\n")
  if (existsSync(lockfilePath)) hash.update(readFileSync(lockfilePath))
  return hash.digest("hex")
}

const readStamp = () => {
  try {
    return readFileSync(stampFile, "utf8").trim()
  } catch {
    return undefined
  }
}

const sortedJson = (value = {}) => JSON.stringify(Object.keys(value).sort().map((key) => [key, value[key]]))

// The same question `npm ci` asks before it starts: does the lockfile record what every package.json declares?
const lockfileInSync = (lockfile, workspaces) => {
  const lockedWorkspaces = Object.keys(lockfile.packages ?? {})
    .filter((key) => key !== "" && !key.startsWith("node_modules/") && !key.includes("/node_modules/"))
    .sort()
  if (JSON.stringify(lockedWorkspaces) !== JSON.stringify(workspaces)) return false
  return ["", ...workspaces].every((folder) => {
    const manifest = readJson(join(root, folder, "package.json"))
    const locked = lockfile.packages[folder] ?? {}
    return dependencyFields.every((field) => sortedJson(manifest[field]) === sortedJson(locked[field]))
  })
}

// npm keeps a copy of the lockfile for what it actually installed; when that matches, installing again changes nothing.
const installedTreeMatches = (lockfile) => {
  const hiddenPath = join(nodeModules, ".package-lock.json")
  if (!existsSync(hiddenPath)) return false
  const installed = readJson(hiddenPath).packages ?? {}
  const locked = lockfile.packages ?? {}
  const same = (a, b) => a.version === b.version && a.resolved === b.resolved && a.link === b.link
  const installedMatches = Object.entries(installed).every(([key, entry]) => locked[key] && same(entry, locked[key]))
  const lockedPresent = Object.entries(locked).every(
    ([key, entry]) => key === "" || entry.optional === true || entry.devOptional === true || installed[key] !== undefined
  )
  return installedMatches && lockedPresent
}

// `quiet`: keep npm's output unless it fails, then show only its first error lines (npm ci's failure is expected
// here and prints a screenful of usage text).
const npm = (args, { quiet = false } = {}) => {
  log(`running npm ${args.join(" ")}`)
  const viaNpmCli = process.env.npm_execpath?.endsWith(".js")
  const command = viaNpmCli ? process.execPath : "npm"
  const commandArgs = viaNpmCli ? [process.env.npm_execpath, ...args] : args
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    // onnxruntime-node bundles its CPU binaries; its install script would only fetch GPU ones, from a host this
    // machine cannot reach (npm versions that still run install scripts without approval would fail on it).
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: "skip" },
    stdio: quiet ? "pipe" : "inherit",
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    shell: process.platform === "win32"
  })
  if (result.error) log(`npm could not start: ${result.error.message}`)
  if (quiet && result.status === 0) process.stdout.write(result.stdout)
  if (quiet && result.status !== 0) {
    const errors = `${result.stderr ?? ""}`.split("\n").filter((line) => /^npm error \S/.test(line))
    for (const line of errors.slice(0, 6)) log(`  ${line}`)
    if (errors.length > 6) log(`  ... ${errors.length - 6} more error lines`)
  }
  return result.status === 0
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

const isAlive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === "EPERM"
  }
}

// Two `npm test` runs in one checkout must not install into the same node_modules at once.
const withInstallLock = (body) => {
  mkdirSync(dirname(lockDir), { recursive: true })
  const ownerFile = join(lockDir, "pid")
  const deadline = Date.now() + 15 * 60_000
  for (let waiting = false; ; waiting = true) {
    try {
      mkdirSync(lockDir)
      writeFileSync(ownerFile, String(process.pid))
      break
    } catch (error) {
      if (error.code !== "EEXIST") throw error
      const owner = Number.parseInt(existsSync(ownerFile) ? readFileSync(ownerFile, "utf8") : "", 10)
      const ownerGone = Number.isInteger(owner) ? !isAlive(owner) : Date.now() - statSync(lockDir).mtimeMs > 30_000
      if (ownerGone) {
        rmSync(lockDir, { recursive: true, force: true })
        continue
      }
      if (Date.now() > deadline) throw new Error(`another install (pid ${owner}) still holds ${lockDir}`)
      if (!waiting) log(`waiting for the install running in pid ${owner}`)
      sleep(500)
    }
  }
  try {
    return body()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

const install = (workspaces) => {
  const reason = !existsSync(nodeModules) ? "node_modules is missing" : readStamp() === undefined ? "no install stamp" : "package.json or package-lock.json changed"
  const lockfile = existsSync(lockfilePath) ? readJson(lockfilePath) : undefined
  const inSync = lockfile !== undefined && lockfileInSync(lockfile, workspaces)
  if (inSync && installedTreeMatches(lockfile)) {
    log(`${reason}; node_modules already holds the locked tree, recording the stamp`)
  } else if (inSync) {
    log(`${reason}; lockfile in sync, installing it exactly`)
    if (!npm(["ci", "--no-audit", "--no-fund"], { quiet: true })) {
      log("npm ci failed (often a missing other-platform optional binary); falling back to npm install")
      if (!npm(["install", "--no-audit", "--no-fund"])) return false
    }
  } else {
    log(`${reason}; ${lockfile === undefined ? "no package-lock.json" : "package-lock.json is out of sync with package.json"}, running npm install`)
    if (!npm(["install", "--no-audit", "--no-fund"])) return false
  }
  // npm install may have rewritten the lockfile: stamp what is on disk now.
  writeFileSync(stampFile, `${currentHash(workspaceFolders(readJson(join(root, "package.json"))))}\n`)
  log(`stamp written to ${relative(root, stampFile)}`)
  return true
}

const main = () => {
  const workspaces = workspaceFolders(readJson(join(root, "package.json")))
  if (existsSync(nodeModules) && readStamp() === currentHash(workspaces)) return 0
  return withInstallLock(() => {
    // Whoever held the lock may have just installed the same tree.
    if (existsSync(nodeModules) && readStamp() === currentHash(workspaces)) return 0
    return install(workspaces) ? 0 : 1
  })
}

const versionParts = (version) => version.replace(/^v/, "").split(".").map((part) => Number.parseInt(part, 10))

const atLeast = (version, minimum) => {
  const [a, b] = [versionParts(version), versionParts(minimum)]
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i]
  return true
}

/** `>=26.12.1 <27` → the pinned version and its major. */
const pinnedNode = () => {
  const range = readJson(join(root, "package.json")).engines?.node ?? ""
  const minimum = /^>=(\d+\.\d+\.\d+)/.exec(range)?.[1]
  return minimum === undefined ? undefined : { minimum, major: versionParts(minimum)[0], range }
}

// Which Node the npm scripts run: the system's where it already is the pinned line, else the linked one.
const chooseNode = () => {
  const pinned = pinnedNode()
  if (pinned === undefined) return
  const linked = join(nodeModules, ".bin", "node")
  const runningIsSystem = !process.execPath.startsWith(nodeModules + sep)
  const systemFits = runningIsSystem && versionParts(process.version)[0] === pinned.major && atLeast(process.version, pinned.minimum)
  if (systemFits && existsSync(linked)) {
    rmSync(linked, { force: true })
    log(`using this machine's Node ${process.version} (package.json wants ${pinned.range})`)
  } else if (runningIsSystem && !systemFits && !existsSync(linked)) {
    log(`warning: package.json wants Node ${pinned.range}; this machine runs ${process.version} and npm installed no Node for ${process.platform}-${process.arch}`)
  }
}

try {
  process.exitCode = main()
  if (process.exitCode === 0) chooseNode()
} catch (error) {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
