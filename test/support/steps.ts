import { it } from "vitest"

/**
 * The steps of one story whose tests build on each other (start, stop, replay, start again). Once a step fails or
 * times out, the later steps are skipped with a note naming it, instead of failing for reasons of its own.
 */
export const storySteps = () => {
  let failed: string | undefined
  return (name: string, body: () => Promise<void>, timeoutMs?: number) =>
    it(
      name,
      async (context) => {
        if (failed !== undefined) context.skip(`an earlier step failed: ${failed}`)
        context.onTestFailed(() => {
          failed ??= name
        })
        await body()
      },
      timeoutMs
    )
}
