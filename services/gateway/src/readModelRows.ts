import { Data, Effect, Option, Schema } from "effect"

/** A read-model row the repository's schema refuses: the projection and the reader disagree, which is a bug. */
export class UndecodableRow extends Data.TaggedError("UndecodableRow")<{
  readonly readModel: string
  readonly message: string
}> {}

/**
 * Decodes the rows of one read model with their schema. A row that does not decode dies with UndecodableRow (the
 * read model and the schema's complaint), answered as an internal error and logged, never passed on as a wrong value.
 */
export const rowsOf = <S extends Schema.ConstraintDecoder<unknown>>(readModel: string, schema: S) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  const all = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<S["Type"]>> =>
    decode(rows).pipe(
      Effect.catch((error) =>
        Effect.die(new UndecodableRow({ readModel, message: `A row of ${readModel} does not decode: ${error.message}` }))
      )
    )
  /** The first row, if any (queries by key read at most one). */
  const first = (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<S["Type"]>> =>
    Effect.map(all(rows.slice(0, 1)), (decoded) => Option.fromNullishOr(decoded[0]))
  return { all, first } as const
}
