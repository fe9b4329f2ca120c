/**
 * Records of RFC 4180 CSV (CRLF or LF): quoted fields may hold the delimiter, doubled quotes and line breaks. For
 * tests and benchmarks: the fixtures they read and the CSV the service sends.
 */
export const parseCsv = (text: string, delimiter = ","): Array<Array<string>> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let field = ""
  let quoted = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (quoted) {
      if (char !== "\"") field += char
      else if (text[index + 1] === "\"") {
        field += "\""
        index++
      } else quoted = false
    } else if (char === "\"") quoted = true
    else if (char === delimiter) {
      record.push(field)
      field = ""
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[index + 1] === "\n") index++
      record.push(field)
      records.push(record)
      record = []
      field = ""
    } else field += char
  }
  if (field !== "" || record.length > 0) {
    record.push(field)
    records.push(record)
  }
  return records
}
