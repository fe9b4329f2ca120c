export { synthTableFromArrow, UnsupportedColumn } from "./synthTableFromArrow.ts"
export { synthTableToArrow, synthTableToIpc } from "./synthTableToArrow.ts"
