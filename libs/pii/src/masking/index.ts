export { maskValue } from "./maskValue.ts"
