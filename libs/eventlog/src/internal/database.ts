import { Effect, Semaphore } from "effect"
import { EventLogError } from "../EventLog.ts"
import type { PgliteSession } from "./pgliteThread.ts"

export type Query = <Row>(sql: string, params?: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Row>, EventLogError>

/**
 * One PGlite instance is one connection: a statement sent while another fiber's transaction is open would run
 * inside that transaction (and see its uncommitted rows). So every use takes the single permit, and holds it
 * uninterruptibly, because an abandoned promise would keep running against the connection after the permit was
 * handed on.
 */
export interface Database {
  readonly query: Query
  /** All or nothing; the body's statements run with the permit held, so it must use the `query` it is given. */
  readonly transaction: <A>(body: (query: Query) => Effect.Effect<A, EventLogError>) => Effect.Effect<A, EventLogError>
  /** Waits for the statement in flight, then closes the connection. */
  readonly close: Effect.Effect<void, EventLogError>
}

const failure = (action: string) => (cause: unknown) =>
  new EventLogError({
    reason: `The embedded event log failed to ${action}: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause
  })

export const makeDatabase = (db: PgliteSession): Effect.Effect<Database> =>
  Effect.map(Semaphore.make(1), (permit) => {
    const unguarded: Query = <Row>(sql: string, params: ReadonlyArray<unknown> = []) =>
      Effect.tryPromise({
        try: () => db.query<Row>(sql, [...params]),
        catch: failure("query its database")
      }).pipe(Effect.map((result) => result.rows))
    const exclusively = <A, E>(effect: Effect.Effect<A, E>) => permit.withPermits(1)(Effect.uninterruptible(effect))

    return {
      query: (sql, params) => exclusively(unguarded(sql, params)),
      transaction: (body) =>
        exclusively(
          unguarded("BEGIN").pipe(
            Effect.andThen(body(unguarded)),
            Effect.tap(() => unguarded("COMMIT")),
            Effect.onError(() => Effect.ignore(unguarded("ROLLBACK")))
          )
        ),
      close: exclusively(Effect.tryPromise({ try: () => db.close(), catch: failure("close its database") }))
    }
  })
