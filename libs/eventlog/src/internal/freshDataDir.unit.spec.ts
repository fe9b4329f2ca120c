import { existsSync } from "node:fs"
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { createInThrowawayThread } from "./freshDataDir.ts"

const made: Array<string> = []
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "fresh-data-dir-"))
  made.push(dir)
  return dir
}
afterEach(() => Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))))

describe("createInThrowawayThread", () => {
  it("creates the database of a fresh data dir (a directory not made yet included)", async () => {
    const dataDir = join(await freshDir(), "eventlog")
    await createInThrowawayThread(dataDir)
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true)
    expect(existsSync(join(dataDir, "base"))).toBe(true)
  }, 180_000)

  it("leaves a data dir that holds a database alone", async () => {
    const dataDir = await freshDir()
    await writeFile(join(dataDir, "PG_VERSION"), "17\n")
    await createInThrowawayThread(dataDir)
    expect(await readdir(dataDir)).toEqual(["PG_VERSION"])
  })

  it("fails when the data dir cannot be made", async () => {
    const file = join(await freshDir(), "a-file")
    await writeFile(file, "")
    await expect(createInThrowawayThread(join(file, "eventlog"))).rejects.toThrow()
  })
})
