// A MinIO server on 127.0.0.1 for tests, benchmarks and local runs of the distributed runtime, without Docker.
// MinIO is built from source with `go install` (its documented source install; no prebuilt binaries are reachable
// here) and cached under `cacheDir`, together with Go's module and build caches, so only the first run pays for it.
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { closeSync, existsSync, openSync } from "node:fs"
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { freePort, type LocalServer, type StartOptions } from "./localServer.ts"

/**
 * The last commit of github.com/minio/minio (2026-02-12): MinIO publishes RELEASE tags that are not semantic
 * versions, so the Go module proxy knows its releases only as pseudo versions. Builds with Go 1.24 and later.
 */
export const minioVersion = "v0.0.0-20260212201848-7aac2a2c5b7c"

const bucket = "synth"
const region = "us-east-1"
const readyTimeoutMs = 60_000
const stopTimeoutMs = 10_000
const startAttempts = 3

const running = new Set<ChildProcess>()
// A test run that crashes or exits early must not leave MinIO holding ports and a data dir.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL")
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const tail = async (file: string, lines = 30) =>
  (await readFile(file, "utf8").catch(() => "")).trimEnd().split("\n").slice(-lines).join("\n")

const run = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, logFile: string) =>
  new Promise<void>((resolve, reject) => {
    const output = openSync(logFile, "w")
    const child = spawn(command, args, { env, stdio: ["ignore", output, output] })
    closeSync(output)
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "ENOENT" ? new Error(`${command} is not installed; it is needed to build MinIO`) : error))
    child.once("exit", async (code, signal) => {
      if (code === 0) return resolve()
      reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${await tail(logFile)}`))
    })
  })

/**
 * The cached binary, built first when missing. The build installs into a directory of its own and is renamed into
 * place, so two processes building at once (a test run and a benchmark, say) both end with a whole binary.
 */
const ensureBinary = async ({ cacheDir, log }: StartOptions): Promise<string> => {
  const home = join(cacheDir, `minio-${minioVersion}`)
  const binary = join(home, "bin", "minio")
  if (existsSync(binary)) return binary

  const staging = join(home, `bin.partial-${process.pid}-${randomBytes(4).toString("hex")}`)
  await mkdir(staging, { recursive: true })
  log(`minio: building ${minioVersion} with go install (first run only; takes minutes)`)
  const started = performance.now()
  try {
    await run("go", ["install", "-trimpath", `github.com/minio/minio@${minioVersion}`], {
      ...process.env,
      GOBIN: staging,
      GOMODCACHE: join(cacheDir, "go", "mod"),
      GOCACHE: join(cacheDir, "go", "build"),
      // Keeps the module cache deletable (Go makes it read-only by default) and the binary free of libc.
      GOFLAGS: "-modcacherw",
      CGO_ENABLED: "0",
      GOTOOLCHAIN: "local"
    }, join(home, "build.log"))
    await rename(staging, join(home, "bin")).catch((error: NodeJS.ErrnoException) => {
      // Another process finished first: its binary is as good as ours.
      if (!existsSync(binary)) throw error
    })
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
  log(`minio: built in ${((performance.now() - started) / 1000).toFixed(0)} s, cached in ${home}`)
  return binary
}

const exitOf = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
  })

const isLive = async (endpoint: string) => {
  try {
    const response = await fetch(`${endpoint}/minio/health/live`, { signal: AbortSignal.timeout(2_000) })
    return response.ok
  } catch {
    return false
  }
}

/** Resolves once MinIO answers its liveness probe; rejects when it exits first (a port taken meanwhile, say). */
const waitUntilLive = async (child: ChildProcess, endpoint: string, logFile: string) => {
  let spawnError: Error | undefined
  child.once("error", (error) => (spawnError = error))
  const deadline = Date.now() + readyTimeoutMs
  while (Date.now() < deadline) {
    if (spawnError !== undefined) throw new Error(`could not run minio: ${spawnError.message}`)
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`minio exited before it was ready:\n${await tail(logFile)}`)
    }
    if (await isLive(endpoint)) return
    await sleep(100)
  }
  throw new Error(`minio did not answer ${endpoint}/minio/health/live within ${readyTimeoutMs} ms:\n${await tail(logFile)}`)
}

const stopProcess = async (child: ChildProcess) => {
  // Never started (the binary could not be run): there is nothing to stop.
  if (child.pid === undefined) return void running.delete(child)
  const exited = exitOf(child)
  child.kill("SIGTERM")
  const timer = setTimeout(() => child.kill("SIGKILL"), stopTimeoutMs)
  await exited
  clearTimeout(timer)
  running.delete(child)
}

/**
 * Generated per run, so no credentials are committed or shared between runs; with `keep`, generated once and kept
 * beside the data (readable by this user only), so the kept objects stay reachable.
 */
const credentials = async (options: StartOptions) => {
  const file = join(options.runDir, "credentials.json")
  if (options.keep === true && existsSync(file)) return JSON.parse(await readFile(file, "utf8")) as { accessKey: string; secretKey: string }
  const generated = { accessKey: `synth-${randomBytes(6).toString("hex")}`, secretKey: randomBytes(24).toString("hex") }
  if (options.keep === true) await writeFile(file, JSON.stringify(generated), { mode: 0o600 })
  return generated
}

const launch = async (binary: string, options: StartOptions, attempt: number) => {
  const [port, consolePort] = [await freePort(), await freePort()]
  const endpoint = `http://127.0.0.1:${port}`
  const { accessKey, secretKey } = await credentials(options)
  const logFile = join(options.runDir, `minio-${attempt}.log`)
  const output = openSync(logFile, "w")
  const child = spawn(binary, [
    "server",
    join(options.runDir, "data"),
    "--address",
    `127.0.0.1:${port}`,
    "--console-address",
    `127.0.0.1:${consolePort}`,
    "--quiet"
  ], {
    env: {
      ...process.env,
      MINIO_ROOT_USER: accessKey,
      MINIO_ROOT_PASSWORD: secretKey,
      MINIO_SITE_REGION: region,
      MINIO_BROWSER: "off",
      MINIO_UPDATE: "off"
    },
    stdio: ["ignore", output, output]
  })
  closeSync(output)
  running.add(child)
  try {
    await waitUntilLive(child, endpoint, logFile)
  } catch (error) {
    await stopProcess(child)
    throw error
  }
  const env = { S3_ENDPOINT: endpoint, S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey, S3_BUCKET: bucket, S3_REGION: region }
  return { child, env }
}

export const start = async (options: StartOptions): Promise<LocalServer> => {
  const binary = await ensureBinary(options)
  await mkdir(join(options.runDir, "data"), { recursive: true })
  const started = performance.now()
  let launched: Awaited<ReturnType<typeof launch>> | undefined
  for (let attempt = 1; launched === undefined; attempt++) {
    try {
      launched = await launch(binary, options, attempt)
    } catch (error) {
      // The ports were free when probed; another process may have taken one before MinIO bound it.
      if (attempt >= startAttempts) {
        if (options.keep !== true) await rm(options.runDir, { recursive: true, force: true })
        throw error
      }
      options.log(`minio: start attempt ${attempt} failed, retrying: ${String(error).split("\n")[0]}`)
    }
  }
  const { child, env } = launched
  options.log(`minio: ${env.S3_ENDPOINT} ready in ${Math.round(performance.now() - started)} ms (pid ${child.pid})`)

  let stopped: Promise<void> | undefined
  const stop = () => {
    stopped ??= stopProcess(child).then(() => (options.keep === true ? undefined : rm(options.runDir, { recursive: true, force: true })))
    return stopped
  }
  return { env, stop }
}

