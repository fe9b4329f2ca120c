/**
 * Rows for one statement parameter, read back in SQL by `jsonb_to_recordset(${rows}::jsonb) AS name(column type, ...)`:
 * a multi-row insert or update of any number of rows with one parameter and one round trip. A column of type jsonb
 * is better passed as its JSON text (`JSON.stringify`) and cast back (`::jsonb`): a JSON null then stays a jsonb
 * null, as a statement per event would store it, where a member holding null reads as SQL NULL.
 */
export const jsonRows = <A>(items: ReadonlyArray<A>, row: (item: A) => object): string => JSON.stringify(items.map(row))
