import { type Brand, Data } from "effect"

/**
 * Where a blob lives: "/"-joined segments such as `datasets/<uuid>/original`. Only `BlobKey.make` builds one,
 * so every key an adapter sees has passed the segment rules below and can be mapped to a path or an object name
 * without escaping anything.
 */
export type BlobKey = string & Brand.Brand<"BlobKey">

/**
 * A segment broke the rules. Segments are ids we minted (UUIDs) and fixed names ("original", "table.arrow"), so
 * this is a bug in the caller, never a user's mistake: `BlobKey.make` throws it, and inside an Effect it surfaces
 * as a defect. User input (a file name, say) must never be used as a segment; this error is what stops it.
 */
export class InvalidBlobKey extends Data.TaggedError("InvalidBlobKey")<{
  readonly segment: string
  readonly reason: string
}> {
  override get message() {
    return `invalid blob key segment ${JSON.stringify(this.segment.slice(0, 64))}: ${this.reason}`
  }
}

/** Lower case only, so keys mean the same on case-insensitive file systems and in S3. */
const segmentPattern = /^[a-z0-9][a-z0-9._-]{0,127}$/

const checkSegment = (segment: string): void => {
  if (!segmentPattern.test(segment)) {
    throw new InvalidBlobKey({
      segment,
      reason: "a segment is 1 to 128 characters of a-z, 0-9, '.', '_', '-' and starts with a letter or digit"
    })
  }
  if (segment.includes("..")) {
    throw new InvalidBlobKey({ segment, reason: "a segment must not contain '..'" })
  }
}

export const BlobKey = {
  /** Builds a key from one or more segments; throws `InvalidBlobKey` (a programmer error) when one breaks the rules. */
  make: (...segments: ReadonlyArray<string>): BlobKey => {
    // An empty key would name the store's root: `removePrefix` on it would wipe every blob.
    if (segments.length === 0) throw new InvalidBlobKey({ segment: "", reason: "a key has at least one segment" })
    segments.forEach(checkSegment)
    return segments.join("/") as BlobKey
  }
}
