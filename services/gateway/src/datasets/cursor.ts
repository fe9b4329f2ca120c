import { Buffer } from "node:buffer"
import { Option } from "effect"
import { isUuid } from "./DatasetRepository.ts"

/**
 * The opaque `?cursor=` of the dataset list: the last id of the previous page, base64url-encoded so clients do not
 * build cursors themselves (the encoding may change).
 */
export const encodeCursor = (lastId: string): string => Buffer.from(`v1:${lastId}`, "utf8").toString("base64url")

/** The id to continue after; none when the cursor is not one of ours. */
export const decodeCursor = (cursor: string): Option.Option<string> => {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return Option.none()
  const decoded = Buffer.from(cursor, "base64url").toString("utf8")
  const id = decoded.startsWith("v1:") ? decoded.slice(3) : ""
  return isUuid(id) ? Option.some(id.toLowerCase()) : Option.none()
}
