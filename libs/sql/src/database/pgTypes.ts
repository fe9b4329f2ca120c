import { PgTypes } from "@effect/sql-pg"
import { Result } from "effect"

const int8Bytes = 8

/**
 * `bigint` (int8) values as their decimal strings, as the read models were written against (node-postgres, under
 * Effect 3) and as the API serves them: offsets and `count(*)` results never reach 2^53, and a JS bigint would
 * not survive JSON.stringify. Parameters may be strings, numbers or bigints.
 */
const int8AsString: PgTypes.Codec<string | number | bigint> = {
  decode: (bytes) =>
    bytes.length === int8Bytes
      ? Result.succeed(new DataView(bytes.buffer, bytes.byteOffset, int8Bytes).getBigInt64(0).toString())
      : Result.fail(new PgTypes.CodecError({ message: `int8 needs ${int8Bytes} bytes, got ${bytes.length}` })),
  encode: (value) => {
    try {
      const bytes = new Uint8Array(int8Bytes)
      new DataView(bytes.buffer).setBigInt64(0, BigInt(value))
      return Result.succeed(bytes)
    } catch (cause) {
      return Result.fail(new PgTypes.CodecError({ message: `not an int8: ${String(value)} (${String(cause)})` }))
    }
  }
}

/** The codecs of every read-model client: @effect/sql-pg's, with int8 read as a string. */
export const makeReadModelTypes = (): PgTypes.Registry => {
  const registry = PgTypes.makeRegistry()
  registry.register(PgTypes.OID.int8, int8AsString, { arrayOid: PgTypes.OID.int8Array })
  return registry
}
