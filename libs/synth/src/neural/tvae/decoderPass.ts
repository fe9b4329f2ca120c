/**
 * The trained decoder's forward pass for sampling (network.ts's applyDecoder: Linear+ReLU layers, then a linear
 * output): each layer one ONNX Runtime product with its bias (direct/matrices.ts) and the ReLU in a loop, over
 * buffers kept from batch to batch, wherever ONNX Runtime loaded; else through tfjs. The two differ only by float32
 * rounding; the direct pass saves tfjs's per-batch tensors and kernels.
 */
import * as tf from "@tensorflow/tfjs"
import { type DenseView, productsOf } from "../ctgan/direct/matrices.ts"
import type { Dense } from "../tf/dense.ts"
import { loadNativeGemm } from "../tf/native/nativeGemm.ts"
import { applyDecoder, type Decoder } from "./network.ts"

export interface DecoderPass {
  /** The raw outputs (rows × encoded width) for the first `rows` rows of `noise`, valid until the next run. */
  readonly run: (noise: Float32Array, rows: number) => Float32Array
}

const viewOf = (layer: Dense): DenseView => ({
  inputs: layer.weight.shape[0],
  outputs: layer.weight.shape[1],
  weight: layer.weight.dataSync() as Float32Array,
  bias: layer.bias.dataSync() as Float32Array
})

/** A pass over batches of at most `maxRows` rows; `engine: "tfjs"` takes tfjs even where ONNX Runtime loaded. */
export const decoderPass = (decoder: Decoder, maxRows: number, engine: "auto" | "tfjs" = "auto"): DecoderPass => {
  const native = engine === "auto" ? loadNativeGemm() : null
  if (native?._tag === "Loaded") {
    const products = productsOf(native.gemm)
    const hidden = decoder.hidden.map(viewOf)
    const output = viewOf(decoder.output)
    const activations = hidden.map((layer) => new Float32Array(maxRows * layer.outputs))
    const raw = new Float32Array(maxRows * output.outputs)
    return {
      run: (noise, rows) => {
        let x = noise
        hidden.forEach((layer, l) => {
          const out = activations[l]!
          products.dense(layer, x, rows, out)
          for (let i = 0; i < rows * layer.outputs; i++) if (out[i]! < 0) out[i] = 0
          x = out
        })
        products.dense(output, x, rows, raw)
        return raw.subarray(0, rows * output.outputs)
      }
    }
  }
  const embeddingDim = decoder.hidden[0]?.weight.shape[0] ?? decoder.output.weight.shape[0]
  return {
    run: (noise, rows) => {
      // The tidy returns the tensor, not its values: tf.tidy walks a returned typed array element by element.
      const raw = tf.tidy(() => applyDecoder(decoder, tf.tensor2d(noise.subarray(0, rows * embeddingDim), [rows, embeddingDim])))
      const values = raw.dataSync() as Float32Array
      raw.dispose()
      return values
    }
  }
}
