/** A word as the lexicons store it: accents removed, lower case (`Müller` and `Muller` are one entry). */
export const normaliseWord = (word: string): string => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()

/** Every string of a faker definition: a list, or lists under keys (`{ generic, female, male }`). */
export const definitionStrings = (definition: unknown): ReadonlyArray<string> => {
  if (definition === undefined || definition === null) return []
  if (typeof definition === "string") return [definition]
  if (Array.isArray(definition)) return definition.flatMap(definitionStrings)
  if (typeof definition === "object") return Object.values(definition).flatMap(definitionStrings)
  return []
}

/** A set of normalised words (and whole phrases) from faker definitions. */
export const wordSet = (definitions: ReadonlyArray<unknown>): ReadonlySet<string> =>
  new Set(definitions.flatMap(definitionStrings).map(normaliseWord).filter((word) => word !== ""))
