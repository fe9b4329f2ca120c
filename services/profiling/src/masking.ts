import { maskedValue, type Profile as ProfileResource } from "@synth/contracts"
import type { ColumnProfile, Profile } from "@synth/stats"

type StoredProfile = typeof ProfileResource.Encoded
type StoredColumn = StoredProfile["columns"][number]

/**
 * Column names that denote personal data, compared after lower-casing and dropping everything but letters and
 * digits (`E-Mail`, `e_mail` and `email` are one name). A stand-in until the PII scanner (a later issue) decides
 * per column from the values too; deliberately short, so that it masks few columns it should not.
 */
const personalNames = new Set([
  "email", "emailaddress", "mail", "phone", "phonenumber", "mobile", "mobilenumber", "telephone", "cellphone",
  "ssn", "socialsecuritynumber", "nationalid", "passport", "passportnumber", "name", "firstname", "lastname",
  "fullname", "surname", "givenname", "middlename", "username", "address", "streetaddress", "street",
  "homeaddress", "postcode", "postalcode", "zip", "zipcode", "dob", "dateofbirth", "birthdate", "birthday",
  "iban", "creditcard", "creditcardnumber", "cardnumber", "ipaddress"
])

/** The last word of a name (`customer_email`, `contactPhone`, `HOME-ADDRESS`) that marks it as personal data. */
const personalLastWords = new Set(["email", "phone", "ssn", "name", "surname", "address", "passport", "iban"])

const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "")

export const denotesPersonalData = (name: string): boolean => {
  const parts = words(name)
  return personalNames.has(parts.join("")) || personalLastWords.has(parts[parts.length - 1] ?? "")
}

/**
 * Keeps the first and the last character (code points) of a value of at least 5 characters around `***`; a shorter
 * value becomes `***`. Enough for a person to recognise the kind of value, too little to recover it; two values may
 * mask alike, so most_frequent can repeat an entry (each keeps its own count).
 */
export const maskValue = (value: string): string => {
  const characters = Array.from(value)
  return characters.length < 5 ? maskedValue : `${characters[0]}${maskedValue}${characters[characters.length - 1]}`
}

const storedColumn = (column: ColumnProfile): StoredColumn => {
  switch (column.type) {
    case "string":
    case "boolean": {
      // true/false reveal nothing about a person, whatever the column is called.
      const masked = column.type === "string" && (column.likely_identifier || denotesPersonalData(column.name))
      return {
        ...column,
        most_frequent: masked ? column.most_frequent.map(maskValue) : column.most_frequent,
        most_frequent_masked: masked
      }
    }
    default:
      return column
  }
}

/**
 * The Profile resource as it is stored and served: the statistics with the dataset id, and most_frequent masked in
 * columns that look like identifiers or whose names denote personal data.
 */
export const profileResource = (datasetId: string, profile: Profile): StoredProfile => ({
  dataset_id: datasetId,
  ...profile,
  columns: profile.columns.map(storedColumn)
})
