/**
 * Matrix products on ONNX Runtime's CPU kernels (MLAS: AVX2/AVX-512 with FMA), called synchronously from a tfjs
 * kernel. Measured on this project's machines (2026-11-26), one thread each, for CTGAN's shapes: 51–64 GFLOPS against
 * 13–21 for tfjs's wasm matmul, whose 128-bit SIMD has no fused multiply-add (docs/neural-generators.md).
 *
 * onnxruntime-node's public `InferenceSession.run` only answers through a promise (it defers the native call with
 * setImmediate), and a tfjs kernel must return its result at once; so this calls the package's native binding, which
 * the public API wraps, directly: `dist/binding.js` (pinned version, see package.json). Inputs and the output are
 * passed as views, wasm memory included, so nothing is copied: ONNX Runtime reads and writes them in place.
 *
 * Loading can fail (a platform without the bundled binary, Deno without --allow-ffi, SYNTH_NATIVE_MATMUL=off); the
 * caller then keeps tfjs's own matmul, with the reason.
 */
import { Config, Effect } from "effect"
import { createRequire } from "node:module"
import { gemmModel } from "./gemmModel.ts"

export interface NativeGemm {
  /**
   * out (m×n) = op(a)·op(b), where a is m×k (k×m when transposed) and b is k×n (n×k when transposed), row-major.
   * Runs on the calling thread, on one core.
   */
  readonly multiply: (
    a: Float32Array,
    transposeA: boolean,
    b: Float32Array,
    transposeB: boolean,
    dimensions: { readonly m: number; readonly k: number; readonly n: number },
    out: Float32Array
  ) => void
  /** A session for another model (onnxGraph.ts), run on the calling thread, on one core. */
  readonly session: (model: Uint8Array) => NativeSession
  /** out (m×n) = a·b + bias (added to every row): a dense layer in one pass. */
  readonly multiplyAddRow: (
    a: Float32Array,
    b: Float32Array,
    bias: Float32Array,
    dimensions: { readonly m: number; readonly k: number; readonly n: number },
    out: Float32Array
  ) => void
}

/** A tensor's data (read or written in place) and its dimensions. */
export interface NativeTensor {
  readonly data: Float32Array | BigInt64Array
  readonly dims: ReadonlyArray<number>
}

export interface NativeSession {
  /** Runs the model on `inputs`, writing every output into the arrays given for it (exactly their sizes). */
  readonly run: (inputs: Readonly<Record<string, NativeTensor>>, outputs: Readonly<Record<string, NativeTensor>>) => void
  /** Frees the session's native memory (a training's sessions live as long as the training). */
  readonly dispose: () => void
}

export type NativeGemmLoad =
  | { readonly _tag: "Loaded"; readonly gemm: NativeGemm }
  | { readonly _tag: "Unavailable"; readonly reason: string }

/** The parts of onnxruntime-node's native binding used here (dist/binding.js of onnxruntime-node 1.30). */
interface BindingSession {
  loadModel(buffer: ArrayBufferLike, byteOffset: number, byteLength: number, options: object): void
  run(feeds: Record<string, unknown>, fetches: Record<string, unknown>, options: object): unknown
  dispose(): void
}
interface BindingModule {
  readonly binding: { readonly InferenceSession: new () => BindingSession }
  readonly initOrt: () => void
}
interface TensorConstructor {
  new (type: "float32" | "int64", data: Float32Array | BigInt64Array, dims: ReadonlyArray<number>): unknown
}

/**
 * One thread per product: each training already has a core of its own (two cores: two trainings, or one training
 * on two data-parallel threads), so ONNX Runtime's own thread pool would only compete with it.
 */
const SESSION_OPTIONS = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  graphOptimizationLevel: "all"
}

const load = (): NativeGemm => {
  // Resolved from this file, so the package is the one this library depends on; the Tensor class must be the very
  // one the binding was initialised with (onnxruntime-node's own onnxruntime-common).
  const requireHere = createRequire(import.meta.url)
  const packageRequire = createRequire(requireHere.resolve("onnxruntime-node"))
  const { binding, initOrt } = packageRequire("./binding.js") as BindingModule
  const { Tensor } = packageRequire("onnxruntime-common") as { readonly Tensor: TensorConstructor }
  initOrt()
  const open = (model: Uint8Array): BindingSession => {
    const opened = new binding.InferenceSession()
    opened.loadModel(model.buffer, model.byteOffset, model.byteLength, SESSION_OPTIONS)
    return opened
  }
  const tensorOf = ({ data, dims }: NativeTensor) => new Tensor(data instanceof Float32Array ? "float32" : "int64", data, dims)
  const tensorsOf = (tensors: Readonly<Record<string, NativeTensor>>) =>
    Object.fromEntries(Object.entries(tensors).map(([name, tensor]) => [name, tensorOf(tensor)]))
  const session = (model: Uint8Array): NativeSession => {
    const opened = open(model)
    return { run: (inputs, outputs) => void opened.run(tensorsOf(inputs), tensorsOf(outputs), {}), dispose: () => opened.dispose() }
  }
  const sessions = [false, true].map((transposeA) => [false, true].map((transposeB) => open(gemmModel(transposeA, transposeB))))
  const biased = open(gemmModel(false, false, true))
  const multiply: NativeGemm["multiply"] = (a, transposeA, b, transposeB, { k, m, n }, out) => {
    const session = sessions[transposeA ? 1 : 0]![transposeB ? 1 : 0]!
    session.run(
      {
        a: new Tensor("float32", a, transposeA ? [k, m] : [m, k]),
        b: new Tensor("float32", b, transposeB ? [n, k] : [k, n])
      },
      { y: new Tensor("float32", out, [m, n]) },
      {}
    )
  }
  const multiplyAddRow: NativeGemm["multiplyAddRow"] = (a, b, bias, { k, m, n }, out) => {
    biased.run(
      {
        a: new Tensor("float32", a, [m, k]),
        b: new Tensor("float32", b, [k, n]),
        c: new Tensor("float32", bias, [n])
      },
      { y: new Tensor("float32", out, [m, n]) },
      {}
    )
  }
  return { multiply, multiplyAddRow, session }
}

let loaded: NativeGemmLoad | null = null

/** `SYNTH_NATIVE_MATMUL=off` keeps tfjs's wasm matmul (to compare the two); any value but on/off is refused. */
const nativeSetting = Config.Literals(["on", "off"], "SYNTH_NATIVE_MATMUL").pipe(Config.withDefault("on"))

/** Loads ONNX Runtime once per thread; throws a ConfigError for a SYNTH_NATIVE_MATMUL other than on or off. */
export const loadNativeGemm = (): NativeGemmLoad => {
  if (loaded !== null) return loaded
  if (Effect.runSync(nativeSetting) === "off") {
    loaded = { _tag: "Unavailable", reason: "SYNTH_NATIVE_MATMUL=off" }
    return loaded
  }
  try {
    loaded = { _tag: "Loaded", gemm: load() }
  } catch (error) {
    loaded = { _tag: "Unavailable", reason: error instanceof Error ? error.message : String(error) }
  }
  return loaded
}
