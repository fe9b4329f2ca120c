/**
 * Which step a CTGAN or DP-CTGAN training runs: the direct step (direct/directStep.ts, direct/directDpStep.ts:
 * hand-derived gradients, products on ONNX Runtime) wherever ONNX Runtime loaded, else the tfjs step (ctganStep.ts,
 * dpCtganStep.ts), which computes the same step through tfjs's automatic gradients, ~2.5× slower
 * (docs/neural-generators.md, "The direct training step"). `SYNTH_CTGAN_STEP=tfjs` keeps the tfjs step (to compare
 * the two). Both threads of a data-parallel training choose alike: they load the same package under the same
 * settings.
 */
import { Config, Effect } from "effect"
import type { GradientExchange } from "../parallel/gradientExchange.ts"
import { loadNativeGemm } from "../tf/native/nativeGemm.ts"
import type { ConditionDraw } from "./conditions.ts"
import { ctganStep } from "./ctganStep.ts"
import { directDpCtganTrainer } from "./direct/directDpStep.ts"
import { directCtganTrainer } from "./direct/directStep.ts"
import { productsOf } from "./direct/matrices.ts"
import { dpCtganStep } from "./dpCtganStep.ts"
import type { PrivacyPlan } from "./privacyPlan.ts"
import type { StepLosses, TrainingContext } from "./trainingContext.ts"

export interface CtganTrainer {
  readonly step: () => StepLosses
  /** Leaves the trained weights in the tfjs networks; call after the last step. */
  readonly settle: () => void
  /** Frees what the step holds outside the networks (the direct step's ONNX Runtime sessions). */
  readonly dispose: () => void
  readonly engine: "direct" | "tfjs"
}

/** Any value but direct or tfjs is refused (a ConfigError), as SYNTH_NATIVE_MATMUL's. */
const stepSetting = Config.Literals(["direct", "tfjs"], "SYNTH_CTGAN_STEP").pipe(Config.withDefault("direct"))

/**
 * `plan` is DP-CTGAN's (null for CTGAN). `context`'s optimisers already average through `exchange`
 * (trainingContextOf); the direct step, which keeps its own flat parameters and Adam, takes the exchange itself.
 */
export const ctganTrainer = (
  context: TrainingContext,
  draw: ConditionDraw,
  exchange: GradientExchange | null,
  plan: PrivacyPlan | null = null
): CtganTrainer => {
  const native = Effect.runSync(stepSetting) === "direct" ? loadNativeGemm() : null
  if (native?._tag === "Loaded") {
    const products = productsOf(native.gemm)
    const direct = plan === null ? directCtganTrainer(context, draw, products, exchange) : directDpCtganTrainer(context, plan, draw, products)
    return { ...direct, engine: "direct" }
  }
  const step = plan === null ? ctganStep(context, draw) : dpCtganStep(context, plan, draw)
  return { step, settle: () => {}, dispose: () => {}, engine: "tfjs" }
}
