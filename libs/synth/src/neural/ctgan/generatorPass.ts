/**
 * The trained generator's forward pass for sampling, a batch of rows at a time: on the direct path (direct/
 * directGenerator.ts: one ONNX Runtime call per layer over flat arrays) wherever ONNX Runtime loaded, as training's
 * direct step, else through tfjs (generator.ts). Both compute generator.ts's network, batch norm on the batch's own
 * statistics; they differ only by float32 rounding. The tfjs path cost ~0.3 s per 50,000 rows of engine overhead
 * (tensors, a concat and ~20 kernels a batch) on telco_churn, about as much as the products themselves.
 */
import * as tf from "@tensorflow/tfjs"
import { readWeights } from "../parallel/weights.ts"
import { loadNativeGemm } from "../tf/native/nativeGemm.ts"
import { makeDirectGenerator } from "./direct/directGenerator.ts"
import { productsOf } from "./direct/matrices.ts"
import { applyGenerator, type Generator, generatorVariables } from "./generator.ts"

export interface GeneratorPass {
  /** rows × inputs: write each row's [noise, conditional vector] here before `run`. */
  readonly input: Float32Array
  /** The raw output (before the heads), rows × outputs, valid until the next run. */
  readonly run: () => Float32Array
  readonly dispose: () => void
}

/**
 * A pass over batches of exactly `rows` rows (batch norm's statistics are a batch's: sampling keeps training's
 * batch). `engine: "tfjs"` takes the tfjs path even where ONNX Runtime loaded (to compare the two).
 */
export const generatorPass = (generator: Generator, rows: number, engine: "auto" | "tfjs" = "auto"): GeneratorPass => {
  const inputs = generator.residuals[0]?.dense.weight.shape[0] ?? generator.output.weight.shape[0]
  const outputs = generator.output.bias.shape[0]
  const native = engine === "auto" ? loadNativeGemm() : null
  if (native?._tag === "Loaded") {
    const parameters = readWeights(generatorVariables(generator))
    const direct = makeDirectGenerator({
      inputs,
      hidden: generator.residuals.map((residual) => residual.scale.shape[0]),
      outputs,
      maxRows: rows
    }, parameters, new Float32Array(parameters.length), productsOf(native.gemm))
    return {
      input: direct.input,
      run: () => {
        direct.forward(rows)
        return direct.raw
      },
      dispose: direct.dispose
    }
  }
  const input = new Float32Array(rows * inputs)
  return {
    input,
    run: () => {
      // The tidy returns the tensor, not its values: tf.tidy walks a returned typed array element by element.
      const raw = tf.tidy(() => applyGenerator(generator, tf.tensor2d(input, [rows, inputs])))
      const values = raw.dataSync() as Float32Array
      raw.dispose()
      return values
    },
    dispose: () => {}
  }
}
