export { parseCsv } from "./parseCsv.ts"
export { profileInputFromCsv } from "./profileInputFromCsv.ts"
