import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { expect, it } from "vitest"
import { denoExecutable, repoRoot } from "../support/server.ts"

// Data-parallel training starts a peer thread (node:worker_threads) that meets the leader through shared memory and
// Atomics; under Deno too. The fixture's trainings reject unless both replicas end bit-identical.
it("trains CTGAN and TVAE on two threads under Deno", async () => {
  const { stdout } = await promisify(execFile)(
    denoExecutable(),
    ["run", "--allow-all", "--node-modules-dir=manual", "--no-lock", "test/smoke/fixtures/trainTwoThreads.ts"],
    { cwd: repoRoot, env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" }, timeout: 120_000 }
  )
  const lines = stdout.trim().split("\n").map((line) => JSON.parse(line) as unknown)
  expect(lines).toEqual([{ model: "ctgan", epochs: 2, rows: 50 }, { model: "tvae", epochs: 2, rows: 50 }])
}, 150_000)
