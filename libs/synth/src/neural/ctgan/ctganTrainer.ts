/**
 * Which step a CTGAN training runs: the direct step (direct/directStep.ts: hand-derived gradients, products on ONNX
 * Runtime) wherever ONNX Runtime loaded, else the tfjs step (ctganStep.ts), which computes the same step through
 * tfjs's automatic gradients, ~2.5× slower (docs/neural-generators.md, "The direct CTGAN step"). Both threads of a
 * data-parallel training choose alike: they load the same package under the same settings.
 */
import type { GradientExchange } from "../parallel/gradientExchange.ts"
import { loadNativeGemm } from "../tf/native/nativeGemm.ts"
import type { ConditionDraw } from "./conditions.ts"
import { ctganStep } from "./ctganStep.ts"
import { directCtganTrainer } from "./direct/directStep.ts"
import { productsOf } from "./direct/matrices.ts"
import type { StepLosses, TrainingContext } from "./trainingContext.ts"

export interface CtganTrainer {
  readonly step: () => StepLosses
  /** Leaves the trained weights in the tfjs networks; call after the last step. */
  readonly settle: () => void
  /** Frees what the step holds outside the networks (the direct step's ONNX Runtime sessions). */
  readonly dispose: () => void
  readonly engine: "direct" | "tfjs"
}

/**
 * `context`'s optimisers already average through `exchange` (trainingContextOf); the direct step, which keeps its
 * own flat parameters and Adam, takes the exchange itself.
 */
export const ctganTrainer = (context: TrainingContext, draw: ConditionDraw, exchange: GradientExchange | null): CtganTrainer => {
  const native = loadNativeGemm()
  if (native._tag === "Loaded") return { ...directCtganTrainer(context, draw, productsOf(native.gemm), exchange), engine: "direct" }
  return { step: ctganStep(context, draw), settle: () => {}, dispose: () => {}, engine: "tfjs" }
}
