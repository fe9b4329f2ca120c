import { Data } from "effect"

/** The server refused the download or could not be reached, or the file could not be written; `synth` exits 1. */
export class DownloadFailed extends Data.TaggedError("DownloadFailed")<{ readonly message: string }> {}
