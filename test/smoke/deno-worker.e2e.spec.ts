import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { expect, it } from "vitest"
import { denoExecutable, repoRoot } from "../support/server.ts"

// Under Deno a message posted to a worker while its entry module is still loading is dropped (the entry's top-level
// await runs before its listener exists). A generation job once sat at 5 % for four minutes in CI that way. The
// request must reach a worker however long its entry takes to load.
it("a worker thread that is slow to start still gets its request under Deno (generation and evaluation)", async () => {
  const { stdout } = await promisify(execFile)(
    denoExecutable(),
    ["run", "--allow-all", "--node-modules-dir=manual", "--no-lock", "test/smoke/fixtures/runSlowWorkers.ts"],
    { cwd: repoRoot, env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" }, timeout: 60_000 }
  )
  const answers = stdout.trim().split("\n").map((line) => JSON.parse(line) as { kind: string; message: string })
  expect(answers).toHaveLength(2)
  for (const answer of answers) {
    expect(answer.kind).toBe("refused")
    expect(JSON.parse(answer.message)).toEqual({ kind: "sample", artifact: { 0: 1, 1: 2, 2: 3 }, filters: null, numRows: 7, seed: 1 })
  }
}, 90_000)
