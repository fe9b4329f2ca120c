import type { EventEnvelope } from "@synth/contracts"
import { Context, Effect, Fiber, Layer } from "effect"

interface LocalJob {
  readonly fiber: Fiber.Fiber<unknown, unknown>
  readonly attempt: number
  /** The event that started this attempt: the cause of what is decided about it here (a hand-back). */
  readonly cause: EventEnvelope
}

/** The jobs this process is running now, by generator id: what a cancel request interrupts. */
export class LocalJobs extends Context.Service<LocalJobs>()("@synth/generation/LocalJobs", {
  make: Effect.sync(() => {
    const running = new Map<string, LocalJob>()
    return {
      register: (generatorId: string, job: LocalJob) => Effect.sync(() => void running.set(generatorId, job)),
      unregister: (generatorId: string, fiber: Fiber.Fiber<unknown, unknown>) =>
        Effect.sync(() => {
          if (running.get(generatorId)?.fiber === fiber) running.delete(generatorId)
        }),
      isRunning: (generatorId: string) => running.has(generatorId),
      count: () => running.size,
      /** Every job running here, by generator id. */
      all: (): ReadonlyArray<readonly [string, LocalJob]> => Array.from(running),
      /** Interrupts the job if it runs here; answers the attempt it was running, or null. */
      interrupt: (generatorId: string) =>
        Effect.suspend(() => {
          const job = running.get(generatorId)
          if (job === undefined) return Effect.succeed(null)
          return Effect.as(Fiber.interrupt(job.fiber), job.attempt)
        })
    }
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
