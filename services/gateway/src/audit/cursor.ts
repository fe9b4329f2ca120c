import { Buffer } from "node:buffer"
import { Option } from "effect"

/**
 * The opaque `?cursor=` of GET /events: the feed position the previous page ended at, base64url-encoded so clients
 * do not build cursors themselves (positions are public as each event's `position`; use `from_position` for those).
 */
export const encodeAuditCursor = (position: number): string => Buffer.from(`a1:${position}`, "utf8").toString("base64url")

/** The position to continue after; none when the cursor is not one of ours. */
export const decodeAuditCursor = (cursor: string): Option.Option<number> => {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return Option.none()
  const match = /^a1:(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"))
  return match?.[1] === undefined ? Option.none() : Option.some(Number(match[1]))
}
