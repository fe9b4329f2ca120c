// Runs a bench script of this repository in a Node process of its own (so one measurement's memory and JIT state
// never meet another's) with a JSON argument, and answers the first JSON line it prints.
import { spawn } from "node:child_process"
import { repoRoot } from "../../support/server.ts"

export const runJsonChild = <A>(script: string, argument: unknown): Promise<A> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(argument)], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("error", reject)
    child.on("close", (code) => {
      const line = output.split("\n").find((text) => text.startsWith("{"))
      if (code !== 0 || line === undefined) reject(new Error(`${script} exited ${code}: ${output}`))
      else resolve(JSON.parse(line) as A)
    })
  })
