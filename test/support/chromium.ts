// Debian's chromium for the browser tests, installed with apt-get when missing (as deploy/local/postgres.ts installs
// PostgreSQL's server): a fresh CI machine gets it on the first run, later runs find it in place.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"

/** CHROMIUM_PATH names another build (a developer's own); Debian's package installs /usr/bin/chromium. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

const hint = "install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable"

const run = (file: string, args: ReadonlyArray<string>, log: (line: string) => void): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const onData = (chunk: string) => {
      output += chunk
      for (const line of chunk.split("\n")) if (line.trim() !== "") log(`apt: ${line}`)
    }
    child.stdout.setEncoding("utf8").on("data", onData)
    child.stderr.setEncoding("utf8").on("data", onData)
    child.once("error", reject)
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} ${args.join(" ")} failed (exit code ${code}):\n${output.trim()}`))
    )
  })

/**
 * The Chromium executable, installed first with `apt-get update` and `apt-get install chromium` (as root, on Debian)
 * when it is missing. Fails when it can be neither found nor installed: a browser test never skips, in CI or elsewhere.
 */
export const ensureChromium = async (log: (line: string) => void = (line) => console.error(line)): Promise<string> => {
  if (existsSync(chromiumPath)) return chromiumPath
  if (process.env.CHROMIUM_PATH !== undefined) throw new Error(`CHROMIUM_PATH names ${chromiumPath}, which does not exist`)
  if (process.platform !== "linux" || !existsSync("/usr/bin/apt-get")) throw new Error(`${chromiumPath} is missing and apt-get is not here: ${hint}`)
  if (process.getuid?.() !== 0) throw new Error(`${chromiumPath} is missing and only root may install it: ${hint}`)
  // Another apt (a parallel test run, unattended upgrades) may hold the lock: wait for it rather than fail.
  const lock = ["-o", "DPkg::Lock::Timeout=300"]
  log("chromium not found: installing Debian's chromium package (apt-get update, apt-get install)")
  await run("apt-get", [...lock, "update"], log)
  await run("apt-get", [...lock, "install", "-y", "chromium"], log)
  if (!existsSync(chromiumPath)) throw new Error(`apt-get installed chromium, yet ${chromiumPath} is missing: ${hint}`)
  return chromiumPath
}
