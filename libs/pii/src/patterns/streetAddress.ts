/** Street-type words that follow the street's name (English), in lower case. */
const trailingTypes = new Set([
  "street", "st", "avenue", "ave", "road", "rd", "boulevard", "blvd", "lane", "ln", "drive", "dr", "court", "ct",
  "place", "pl", "way", "terrace", "close", "square", "sq", "parkway", "pkwy", "highway", "hwy", "circle", "cir",
  "trail", "crescent", "gardens", "mews", "row", "hill", "path", "pike", "plaza", "alley", "loop", "run", "view",
  "walk", "crossing", "green", "park", "ridge", "heights", "estates", "grove", "point", "port", "harbor", "springs"
])

/** Street-type words that open the street's name (French, Spanish, Italian, Portuguese). */
const leadingTypes = new Set([
  "rue", "avenue", "boulevard", "bd", "chemin", "impasse", "allee", "place", "quai", "route", "calle", "avenida",
  "av", "paseo", "plaza", "camino", "carrer", "via", "viale", "piazza", "corso", "vicolo", "largo", "rua",
  "travessa", "praca", "alameda", "estrada", "rodovia"
])

/** Endings of German and Dutch street names, which glue the type to the name (Hauptstraße, Kerkstraat). */
const gluedEndings = ["strasse", "straße", "str.", "weg", "gasse", "platz", "allee", "ring", "damm", "ufer", "laan", "straat", "plein", "gracht", "kade", "dijk", "steeg", "hof"]

const houseNumber = /^\d{1,5}[a-z]?(?:[-/]\d{1,4}[a-z]?)?,?$/i

/**
 * A street address in the ways the locales we cover write them: `12 Oak Street`, `12 Oak St. Apt 4`, `Hauptstraße 5`,
 * `Kerkstraat 12`, `12 rue de la Paix`, `Calle Mayor 3`, `Via Roma 10`. Word by word, not one large regular
 * expression: alternatives with nested repetition backtrack badly on long non-matching values.
 */
export const isStreetAddress = (value: string): boolean => {
  if (value.length < 6 || value.length > 120 || !/\d/.test(value) || !value.includes(" ")) return false
  const words = value
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((word) => word !== "")
  if (words.length < 2 || words.length > 12) return false
  const numbered = houseNumber.test(words[0]!) || houseNumber.test(words[words.length - 1]!) ||
    (words.length >= 3 && houseNumber.test(words[words.length - 2]!))
  if (!numbered) return false
  const bare = words.map((word) => word.replace(/\.$/, ""))
  if (houseNumber.test(words[0]!) && bare.slice(2).some((word) => trailingTypes.has(word))) return true
  if (bare.some((word, index) => leadingTypes.has(word) && index < bare.length - 1)) return true
  return words.some((word) => gluedEndings.some((ending) => word.length > ending.length + 2 && word.endsWith(ending)))
}
