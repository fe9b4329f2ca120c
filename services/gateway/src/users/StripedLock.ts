import { Effect, Semaphore } from "effect"

/**
 * Serialises commands on one aggregate within this process (check-then-append must not interleave for one email or
 * one refresh-token family). A fixed set of stripes keeps memory bounded whatever the number of keys; unrelated keys
 * sharing a stripe only wait briefly.
 */
export const makeStripedLock = (stripes: number) =>
  Effect.map(Effect.all(Array.from({ length: stripes }, () => Semaphore.make(1))), (semaphores) => {
    const stripeOf = (key: string) => {
      let hash = 0
      for (let index = 0; index < key.length; index++) hash = (Math.imul(hash, 31) + key.charCodeAt(index)) | 0
      return semaphores[Math.abs(hash) % stripes]!
    }
    return <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => stripeOf(key).withPermits(1)(effect)
  })
