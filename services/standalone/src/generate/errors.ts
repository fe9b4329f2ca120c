import { Data } from "effect"

/**
 * The server refused a request or could not be reached, or the job ended without rows; `message` is the one line
 * `synth` prints before it exits with 1.
 */
export class GenerationFailed extends Data.TaggedError("GenerationFailed")<{ readonly message: string }> {}
