export { parseCsv, profileInputFromCsv } from "./profileInputFromCsv.ts"
