import { localClassifierVersion } from "@synth/pii/local-classifier-version"
import { Effect } from "effect"
import type { AiLayerShape } from "./AiLayer.ts"

/**
 * The classifier shipped with @synth/pii: runs in process, offline, on the same sample as the patterns. It loads with
 * the first enhanced scan, not at start.
 */
export const localAiLayer: AiLayerShape = {
  info: { kind: "local", model: localClassifierVersion },
  classify: (input) => Effect.map(Effect.promise(() => import("@synth/pii")), (pii) => pii.classifyColumns(input))
}
