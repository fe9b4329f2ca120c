import { TabularError } from "../TabularError.ts"

/** Trims header names and rejects blank and duplicate ones, naming the column so the user can fix the header. */
export const validateColumnNames = (raw: ReadonlyArray<string>): Array<string> => {
  const names = raw.map((name) => name.trim())
  const positionByName = new Map<string, number>()
  names.forEach((name, i) => {
    if (name === "") {
      throw new TabularError({
        reason: "invalid_columns",
        message: `Column ${i + 1} of the header has a blank name; give every column a name in the header row.`
      })
    }
    const earlier = positionByName.get(name)
    if (earlier !== undefined) {
      throw new TabularError({
        reason: "invalid_columns",
        message: `The column name "${name}" appears twice in the header (columns ${earlier + 1} and ${i + 1}); ` +
          "column names must be unique."
      })
    }
    positionByName.set(name, i)
  })
  return names
}
