// A private PostgreSQL server for tests and for running the distributed runtime by hand: Debian's binaries (installed
// with apt-get when missing), a fresh cluster in runDir on a free 127.0.0.1 port, removed again by stop().
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { closeSync, existsSync, openSync, readFileSync, realpathSync } from "node:fs"
import { chmod, chown, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises"
import { delimiter, dirname, join } from "node:path"
import { freePort, type LocalServer, type StartOptions } from "./localServer.ts"

/** Server user and database the DATABASE_URL names. */
const superuser = "postgres"
const database = "synth"

// Test data is thrown away with runDir, so durability is traded for speed: no fsync, no full-page images, no WAL
// beyond what crash recovery of a live server needs. Never use these settings for data that matters.
const speedSettings = [
  "fsync=off",
  "synchronous_commit=off",
  "full_page_writes=off",
  "wal_level=minimal",
  "max_wal_senders=0",
  // Every test database gets its own pool, and the distributed runtime runs several processes with pools.
  "max_connections=300"
]

interface Command {
  readonly file: string
  readonly args: ReadonlyArray<string>
}

interface Output {
  readonly code: number | null
  readonly output: string
}

const isRoot = () => process.getuid?.() === 0

const isServerBinDir = (dir: string) => existsSync(join(dir, "postgres")) && existsSync(join(dir, "initdb"))

/** PATH first (a developer's own choice), then Debian's /usr/lib/postgresql/<version>/bin, newest version first. */
const findServerBinDir = async (): Promise<string | undefined> => {
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const initdb = join(dir, "initdb")
    if (!existsSync(initdb)) continue
    // Debian links or wraps; the real directory holds postgres beside initdb.
    const real = dirname(realpathSync(initdb))
    if (isServerBinDir(real)) return real
  }
  const debian = "/usr/lib/postgresql"
  const versions = existsSync(debian) ? await readdir(debian) : []
  const newestFirst = versions.filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a))
  return newestFirst.map((version) => join(debian, version, "bin")).find(isServerBinDir)
}

/** Runs a command to completion, passing its output to `log` line by line and keeping it for error messages. */
const run = (
  { args, file }: Command,
  options: { readonly env?: NodeJS.ProcessEnv; readonly log?: (line: string) => void } = {}
): Promise<Output> =>
  new Promise((resolveRun) => {
    const child = spawn(file, args, { cwd: "/", env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    let partial = ""
    const onData = (chunk: string) => {
      output += chunk
      const lines = (partial + chunk).split("\n")
      partial = lines.pop() ?? ""
      for (const line of lines) options.log?.(line)
    }
    child.stdout.setEncoding("utf8").on("data", onData)
    child.stderr.setEncoding("utf8").on("data", onData)
    child.once("error", (error) => resolveRun({ code: null, output: `${output}could not run ${file}: ${error.message}\n` }))
    child.once("close", (code) => {
      if (partial !== "") options.log?.(partial)
      resolveRun({ code, output })
    })
  })

const runOrThrow = async (
  what: string,
  command: Command,
  options: { readonly env?: NodeJS.ProcessEnv; readonly log?: (line: string) => void } = {}
) => {
  const { code, output } = await run(command, options)
  if (code !== 0) {
    throw new Error(`${what} failed (exit code ${code}): ${command.file} ${command.args.join(" ")}\n${output.trim()}`)
  }
  return output
}

/** `apt-get update` then `apt-get install postgresql`, as root; everything apt prints goes to the log. */
const installDebianPackage = async (log: (line: string) => void) => {
  const hint = "install PostgreSQL's server (Debian: apt-get install postgresql) or set DATABASE_URL to a server"
  if (process.platform !== "linux" || !existsSync("/usr/bin/apt-get")) {
    throw new Error(`PostgreSQL's server binaries are not in PATH nor in /usr/lib/postgresql, and apt-get is missing: ${hint}`)
  }
  if (!isRoot()) throw new Error(`PostgreSQL's server binaries are missing and only root may install them: ${hint}`)
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  // Another apt (a second test run, unattended upgrades) may hold the lock: wait for it rather than fail.
  const lock = ["-o", "DPkg::Lock::Timeout=300"]
  const aptLog = (line: string) => log(`apt: ${line}`)
  log("PostgreSQL not found: installing Debian's postgresql package (apt-get update, apt-get install)")
  await runOrThrow("apt-get update", { file: "apt-get", args: [...lock, "update"] }, { env, log: aptLog })
  await runOrThrow(
    "apt-get install postgresql",
    { file: "apt-get", args: [...lock, "install", "-y", "--no-install-recommends", "postgresql"] },
    { env, log: aptLog }
  )
}

/** The uid and gid of the `postgres` system user (PostgreSQL refuses to run as root). */
const serverUser = (): { readonly uid: number; readonly gid: number } => {
  const entry = readFileSync("/etc/passwd", "utf8").split("\n").map((line) => line.split(":")).find(
    (fields) => fields[0] === superuser
  )
  if (entry === undefined) {
    throw new Error(
      `PostgreSQL refuses to run as root and there is no "${superuser}" system user to run it as ` +
        "(Debian's postgresql package creates one): install the package, or run the tests as a non-root user"
    )
  }
  return { uid: Number(entry[2]), gid: Number(entry[3]) }
}

const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((path) => existsSync(path))

/**
 * Runs PostgreSQL's programs through setpriv (util-linux), which execs them, so pids stay the server's: as the
 * `postgres` user when we are root, and with a parent-death signal, so a server whose Node process dies without
 * stopping it (SIGKILL; vitest exiting on a signal skips later "exit" listeners) shuts down immediately.
 */
const asServerUser = (file: string, args: ReadonlyArray<string>): Command => {
  const user = isRoot() ? [`--reuid=${superuser}`, `--regid=${superuser}`, "--init-groups"] : []
  if (setpriv !== undefined) return { file: setpriv, args: [...user, "--pdeathsig=SIGQUIT", "--", file, ...args] }
  if (isRoot()) throw new Error("PostgreSQL refuses to run as root, and setpriv (util-linux) is missing to switch users")
  return { file, args }
}

/** The server user must reach runDir: every directory above it needs the search (x) bit for others. */
const checkTraversable = async (dir: string) => {
  for (let current = dirname(dir); ; current = dirname(current)) {
    const { mode } = await stat(current)
    if ((mode & 0o001) === 0) {
      throw new Error(
        `The postgres user cannot reach ${dir}: ${current} is not searchable by other users (mode ${
          (mode & 0o777).toString(8)
        }); use a run directory under /tmp`
      )
    }
    if (current === dirname(current)) return
  }
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms))

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null

const waitForExit = (child: ChildProcess, ms: number): Promise<boolean> =>
  exited(child)
    ? Promise.resolve(true)
    : new Promise((resolveWait) => {
      const timer = setTimeout(() => resolveWait(false), ms)
      child.once("exit", () => {
        clearTimeout(timer)
        resolveWait(true)
      })
    })

const tail = (path: string, lines = 30) => {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
  } catch {
    return "(no log)"
  }
}

const running = new Set<ChildProcess>()
// If this process exits without stop(), take our servers down with it. SIGQUIT is PostgreSQL's immediate shutdown:
// its backends exit too. Prepended: an "exit" listener that calls process.exit again (vitest has one) ends the
// process before the listeners after it run.
process.prependOnceListener("exit", () => {
  for (const child of running) child.kill("SIGQUIT")
})

interface Postmaster {
  readonly child: ChildProcess
  readonly port: number
}

/**
 * Starts the postmaster on a free port and waits until it accepts connections. A port taken between the probe and
 * the bind makes the server exit at once: try another.
 */
const startPostmaster = async (binDir: string, dataDir: string, logFile: string): Promise<Postmaster> => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const settings = speedSettings.flatMap((setting) => ["-c", setting])
    const { args, file } = asServerUser(join(binDir, "postgres"), [
      "-D",
      dataDir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      // TCP only: no socket file in /var/run/postgresql, where the package's own cluster keeps its socket.
      "-c",
      "unix_socket_directories=",
      ...settings
    ])
    // The log goes to a file, not a pipe: the server keeps logging even when this process is gone.
    const logFd = openSync(logFile, "a")
    const child = spawn(file, args, { cwd: "/", stdio: ["ignore", logFd, logFd] })
    closeSync(logFd)
    running.add(child)
    child.once("exit", () => running.delete(child))
    const spawnError = new Promise<Error>((resolveError) => child.once("error", resolveError))

    const deadline = Date.now() + 60_000
    for (;;) {
      const ready = await run({ file: join(binDir, "pg_isready"), args: ["-h", "127.0.0.1", "-p", String(port), "-t", "1"] })
      if (ready.code === 0) return { child, port }
      if (exited(child)) break
      const failed = await Promise.race([spawnError, sleep(100).then(() => undefined)])
      if (failed !== undefined) throw new Error(`Could not run ${file}: ${failed.message}`)
      if (Date.now() > deadline) {
        child.kill("SIGQUIT")
        await waitForExit(child, 5_000)
        throw new Error(`PostgreSQL did not accept connections on 127.0.0.1:${port} within 60 s:\n${tail(logFile)}`)
      }
    }
    const log = tail(logFile)
    if (attempt < 3 && /could not bind|Address already in use/i.test(log)) continue
    throw new Error(`PostgreSQL exited (code ${child.exitCode}, signal ${child.signalCode}) while starting:\n${log}`)
  }
}

export const start = async ({ keep, log, runDir }: StartOptions): Promise<LocalServer> => {
  let binDir = await findServerBinDir()
  if (binDir === undefined) {
    await installDebianPackage(log)
    binDir = await findServerBinDir()
    if (binDir === undefined) throw new Error("apt-get installed postgresql, yet no initdb and postgres were found")
  }
  const version = (await runOrThrow("postgres --version", { file: join(binDir, "postgres"), args: ["--version"] })).trim()
  log(`using ${version} from ${binDir}`)

  const dataDir = join(runDir, "data")
  const logFile = join(runDir, "postgres.log")
  const passwordFile = join(runDir, "password")
  // A kept cluster is reused with the password it was made with (kept beside it, readable by this user only).
  const keptPasswordFile = join(runDir, "superuser-password")
  const reused = keep === true && existsSync(join(dataDir, "PG_VERSION")) && existsSync(keptPasswordFile)
  const password = reused ? (await readFile(keptPasswordFile, "utf8")).trim() : randomBytes(18).toString("base64url")
  if (keep === true && !reused) await writeFile(keptPasswordFile, `${password}\n`, { mode: 0o600 })
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 })
  if (isRoot()) {
    await checkTraversable(runDir)
    const { gid, uid } = serverUser()
    // Search only: the server user reaches its own directories inside, nothing else of runDir is listed.
    await chmod(runDir, 0o711)
    await chown(dataDir, uid, gid)
    await chown(passwordFile, uid, gid)
  }

  const started = performance.now()
  if (!reused) await runOrThrow(
    "initdb",
    asServerUser(join(binDir, "initdb"), [
      "-D",
      dataDir,
      "-U",
      superuser,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--no-locale",
      "--no-sync",
      "--no-instructions"
    ])
  )
  await rm(passwordFile, { force: true })
  const initdbMillis = performance.now() - started

  const { child, port } = await startPostmaster(binDir, dataDir, logFile)
  const stop = async () => {
    if (!exited(child)) {
      // Fast shutdown: open transactions roll back, connections close, the server exits in well under a second.
      child.kill("SIGINT")
      if (!(await waitForExit(child, 30_000))) {
        child.kill("SIGQUIT")
        if (!(await waitForExit(child, 5_000))) {
          child.kill("SIGKILL")
          await waitForExit(child, 5_000)
        }
      }
    }
    if (keep !== true) await rm(runDir, { recursive: true, force: true })
  }

  if (!reused) try {
    await runOrThrow("createdb", {
      file: join(binDir, "createdb"),
      args: ["-h", "127.0.0.1", "-p", String(port), "-U", superuser, database]
    }, { env: { ...process.env, PGPASSWORD: password } })
  } catch (error) {
    await stop()
    throw error
  }
  log(
    `listening on 127.0.0.1:${port} (pid ${child.pid}, data in ${dataDir}, initdb ${(initdbMillis / 1000).toFixed(1)} s; ` +
      `fsync=off, synchronous_commit=off, full_page_writes=off: test data only)`
  )
  return {
    env: { DATABASE_URL: `postgres://${superuser}:${password}@127.0.0.1:${port}/${database}` },
    stop
  }
}

