import { Data } from "effect"

/** The server refused the upload or could not be reached; `message` is the one line `synth` prints. */
export class UploadFailed extends Data.TaggedError("UploadFailed")<{
  readonly message: string
  readonly status?: number
  readonly code?: string
}> {}

/** The command line lacks something the options cannot express (credentials); `synth` exits 2 like a usage error. */
export class UploadUsageError extends Data.TaggedError("UploadUsageError")<{ readonly message: string }> {}
