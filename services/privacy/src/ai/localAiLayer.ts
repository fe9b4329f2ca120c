import { classifyColumns, localClassifier } from "@synth/pii"
import { Effect } from "effect"
import type { AiLayerShape } from "./AiLayer.ts"

/** The classifier shipped with @synth/pii: runs in process, offline, on the same sample as the patterns. */
export const localAiLayer: AiLayerShape = {
  info: { kind: "local", model: localClassifier.version },
  classify: (input) => Effect.sync(() => classifyColumns(input))
}
