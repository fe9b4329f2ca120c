import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { rowsOf, UndecodableRow } from "./readModelRows.ts"

const Row = Schema.Struct({ id: Schema.String, status: Schema.Literals(["running", "completed"]) })
const rows = rowsOf("jobs", Row)

describe("rowsOf", () => {
  it.effect("decodes every row, and the first one when asked", () =>
    Effect.gen(function* () {
      const read = [{ id: "a", status: "running" }, { id: "b", status: "completed" }]
      expect(yield* rows.all(read)).toEqual(read)
      expect(yield* rows.first(read)).toEqual(Option.some(read[0]))
      expect(yield* rows.first([])).toEqual(Option.none())
    }))

  it.effect("dies with UndecodableRow naming the read model and the field at fault, never passing the row on", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(rows.all([{ id: "a", status: "running" }, { id: "b", status: "paused" }]))
      expect(Exit.isFailure(exit)).toBe(true)
      const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect(defect).toBeInstanceOf(UndecodableRow)
      expect((defect as UndecodableRow).readModel).toBe("jobs")
      expect((defect as UndecodableRow).message).toMatch(/^A row of jobs does not decode: .*\[1\]\["status"\]/s)
    }))

  it.effect("checks the first row even when only it is read", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(rows.first([{ id: 7, status: "running" }]))
      expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
    }))
})
