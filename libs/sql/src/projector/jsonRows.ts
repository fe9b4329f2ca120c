/**
 * Rows for one statement parameter, read back in SQL by `jsonb_to_recordset(${rows}::jsonb) AS name(column type, ...)`:
 * a multi-row insert or update of any number of rows with one parameter and one round trip. A jsonb column takes a
 * JSON value as a member, except where a JSON null must stay a jsonb null, as a statement per event would store
 * `${JSON.stringify(value)}::jsonb`: a member holding null reads as SQL NULL, so pass that value's JSON text and cast
 * it (`::jsonb`) in the statement.
 */
export const jsonRows = <A>(items: ReadonlyArray<A>, row: (item: A) => object): string => JSON.stringify(items.map(row))
