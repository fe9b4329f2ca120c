/**
 * Starts TensorFlow.js on its WebAssembly backend, the only fast one that installs here (tfjs-node downloads
 * libtensorflow at install time; the pure-JS cpu backend is ~20× slower), with the gradient fixes measured in
 * shared/design/ML-NOTES.md. Every neural model calls `startWasmBackend()` before it builds a tensor.
 *
 * Load this module only where training runs (the generation worker threads, tests, benchmarks): importing it pulls
 * in tfjs, and starting the backend runs Emscripten code that installs process-wide error listeners (removed below).
 */
// The whole @tensorflow/tfjs, not tfjs-core alone: only the bundle registers the gradients training needs (tfjs-core's
// own register_all_gradients is an ES module Node cannot load: its imports have no file extensions).
import * as tf from "@tensorflow/tfjs"
import { Data } from "effect"
import "@tensorflow/tfjs-backend-wasm"
import { registerGradientFixes } from "./gradientFixes.ts"
import { loadNativeGemm } from "./native/nativeGemm.ts"
import { registerNativeMatMul } from "./native/nativeMatMulKernel.ts"

export class WasmBackendUnavailable extends Data.TaggedError("WasmBackendUnavailable")<{ readonly message: string }> {}

let started: Promise<typeof tf> | null = null

/** Resolves with tfjs once the wasm backend is active; rejects when it cannot start (never falls back to cpu). */
export const startWasmBackend = (): Promise<typeof tf> => {
  started ??= start().catch((error: unknown) => {
    started = null
    throw error
  })
  return started
}

const start = async (): Promise<typeof tf> => {
  const listeners = () => [
    ...process.listeners("uncaughtException").map((listener) => ["uncaughtException", listener] as const),
    ...process.listeners("unhandledRejection").map((listener) => ["unhandledRejection", listener] as const)
  ]
  const before = new Set<unknown>(listeners().map(([, listener]) => listener))
  const ready = await tf.setBackend("wasm")
  // Emscripten's Node glue adds listeners that rethrow every uncaught error and rejection, which would turn any
  // stray rejection in the host process into a crash. tfjs's own clean-up compares them wrongly and keeps them.
  for (const [event, listener] of listeners()) {
    if (!before.has(listener)) process.removeListener(event, listener as (...args: Array<unknown>) => void)
  }
  // setBackend answers false, or tfjs quietly picks another registered backend, when wasm fails to start: training
  // would then run ~20× slower without a word, so refuse instead.
  if (!ready || tf.getBackend() !== "wasm") {
    throw new WasmBackendUnavailable({ message: `tfjs wasm backend did not start (active backend: ${tf.getBackend() ?? "none"})` })
  }
  const native = loadNativeGemm()
  if (native._tag === "Loaded") {
    registerNativeMatMul(native.gemm)
    matrixProducts = { engine: "onnxruntime" }
  } else {
    matrixProducts = { engine: "wasm", reason: native.reason }
  }
  registerGradientFixes({ transposeFlagsAreFast: native._tag === "Loaded" })
  return tf
}

/** Who multiplies matrices in this thread's trainings, once the backend started (and why not ONNX Runtime). */
export type MatrixProducts = { readonly engine: "onnxruntime" } | { readonly engine: "wasm"; readonly reason: string }

let matrixProducts: MatrixProducts | null = null

export const matrixProductEngine = (): MatrixProducts | null => matrixProducts
