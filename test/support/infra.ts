// Vitest global setup of the `int` and `e2e` projects: provisions Kafka, PostgreSQL and MinIO unless KAFKA_BROKERS,
// DATABASE_URL and S3_ENDPOINT name them, and stops them after the run.
//
// Provisioning runs in the background: setup returns at once, so the unit project (which runs first) never waits
// for a server, and a cold build overlaps with the unit tests. When it is done the outcome is written to a state
// file; infraEnv.ts, a setup file of the same projects, waits for that file in each test worker and puts the
// servers' settings into its process.env before the test file is imported.
import { rmSync } from "node:fs"
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import type { TestProject } from "vitest/node"
// eslint-disable-next-line @nx/enforce-module-boundaries -- deploy/local is test tooling, not a library
import { down, type ServerName, up } from "../../deploy/local/infra.ts"

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the outcome of provisioning appears (see InfraState). */
    readonly infraStateFile: string
  }
}

/** The state file's content. */
export interface InfraState {
  /** Settings of the servers started for this run (none for servers the environment gave). */
  readonly env: Readonly<Record<string, string>>
  readonly failures: ReadonlyArray<{ readonly name: ServerName | "infra"; readonly message: string }>
}

interface Provisioning {
  readonly stateFile: string
  readonly done: Promise<void>
  /** `down` of the module instance whose `up` started the servers (another instance has nothing to stop). */
  readonly stop: () => Promise<void>
  /** Projects whose teardown has not run yet: the last one stops the servers. */
  users: number
}

// Both projects list this file and may load it as separate module instances; the main process is one, so the
// servers are provisioned once per run.
const key = Symbol.for("@synth/test/infra")
const registry = globalThis as { [key]?: Provisioning }

const log = (line: string) => console.error(line)

const writeState = async (stateFile: string, state: InfraState) => {
  const partial = `${stateFile}.partial`
  await writeFile(partial, JSON.stringify(state))
  await rename(partial, stateFile)
}

const provision = async (stateFile: string) => {
  let state: InfraState
  try {
    const infra = await up({ log })
    state = {
      env: infra.env,
      failures: infra.outcomes.flatMap((outcome) =>
        outcome.status === "failed" ? [{ name: outcome.name, message: outcome.message }] : []
      )
    }
  } catch (error) {
    state = { env: {}, failures: [{ name: "infra", message: error instanceof Error ? error.stack ?? error.message : String(error) }] }
  }
  for (const failure of state.failures) log(`[infra] ERROR: ${failure.name} could not be provisioned: ${failure.message}`)
  await writeState(stateFile, state)
}

const begin = async (): Promise<Provisioning> => {
  const stateDir = await mkdtemp(join(tmpdir(), "synth-infra-state-"))
  // Vitest exits on SIGINT and SIGTERM without the teardown, from an "exit" listener of its own that ends the process
  // before any listener added after it: prepend.
  process.prependOnceListener("exit", () => rmSync(stateDir, { recursive: true, force: true }))
  const stateFile = join(stateDir, "state.json")
  const done = provision(stateFile)
  return { stateFile, done, stop: () => down(log), users: 0 }
}

export async function setup(project: TestProject) {
  const provisioning = (registry[key] ??= await begin())
  provisioning.users += 1
  project.provide("infraStateFile", provisioning.stateFile)
  return async () => {
    provisioning.users -= 1
    if (provisioning.users > 0) return
    delete registry[key]
    // A run cut short may end while a server is still being built: let that finish, then stop everything.
    await provisioning.done
    await provisioning.stop()
    await rm(dirname(provisioning.stateFile), { recursive: true, force: true })
  }
}
