import { Context, Effect, Layer } from "effect"
import { v5 as uuidV5, v7 as uuidV7 } from "uuid"

/** Name-based ids live in their own namespace so they never collide with another system's v5 ids. */
const namespace = "5f0e6c52-8d4a-4a57-9a3c-6b1c2f0a9e11"

/** Mints identifiers. A service so tests can make them deterministic. */
export class Ids extends Context.Service<Ids>()("@synth/eventlog/Ids", {
  make: Effect.succeed({
    /** Time-ordered UUID (v7): new aggregates and events. */
    next: Effect.sync(() => uuidV7()),
    /**
     * Stable UUID (v5) for a name: the aggregate of failed logins for an email that has no account, or the id of an
     * outcome event derived from the event that caused it (so a redelivered cause appends nothing new).
     */
    forName: (name: string) => uuidV5(name, namespace)
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
