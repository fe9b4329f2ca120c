// Setup file of the `int` and `e2e` projects: waits until the global setup (infra.ts) has provisioned the servers,
// then puts their settings (KAFKA_BROKERS, DATABASE_URL, S3_*) into this worker's process.env, where the test file
// and the processes it starts find them.
//
// A server that could not be provisioned: with CI=true every int and e2e file fails here, naming the server and the
// cause. Elsewhere the cause is printed and the files run; those that need the server fail on its missing settings
// (nothing is skipped), while the others still give their answer on a machine that cannot run, say, MinIO.
import { existsSync, readFileSync } from "node:fs"
import { inject } from "vitest"
import type { InfraState } from "./infra.ts"

// Longer than the 20 minutes `up` gives a cold build, so its own verdict arrives first.
const patienceMs = 25 * 60_000

const waitForState = async (stateFile: string): Promise<InfraState> => {
  const deadline = Date.now() + patienceMs
  while (!existsSync(stateFile)) {
    if (Date.now() > deadline) throw new Error(`the test servers were not provisioned within ${patienceMs / 60_000} minutes`)
    await new Promise((wake) => setTimeout(wake, 200))
  }
  return JSON.parse(readFileSync(stateFile, "utf8")) as InfraState
}

const state = await waitForState(inject("infraStateFile"))
const failures = state.failures.map((failure) => `${failure.name}: ${failure.message}`).join("\n")
if (failures !== "") {
  if (process.env.CI === "true") throw new Error(`CI: the test servers could not be provisioned\n${failures}`)
  console.error(`Test servers that could not be provisioned (tests that need them fail):\n${failures}`)
}
Object.assign(process.env, state.env)
