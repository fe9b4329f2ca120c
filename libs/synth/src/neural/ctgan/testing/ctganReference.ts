/** ctgan 0.12.1's own networks on seeded weights (reference/ctgan_reference.py writes reference/ctganReference.json). */
import { readFileSync } from "node:fs"

export interface DenseJson {
  readonly weight: ReadonlyArray<ReadonlyArray<number>>
  readonly bias: ReadonlyArray<number>
}

export interface CtganReference {
  readonly rows: number
  readonly pac: number
  readonly generator: {
    readonly input: Array<Array<number>>
    readonly residuals: ReadonlyArray<DenseJson & { readonly scale: Array<number>; readonly shift: Array<number> }>
    readonly output: DenseJson
    readonly raw: ReadonlyArray<ReadonlyArray<number>>
  }
  readonly discriminator: {
    readonly layers: ReadonlyArray<DenseJson>
    readonly real: Array<Array<number>>
    readonly fake: Array<Array<number>>
    readonly alphas: ReadonlyArray<number>
    readonly penalty: number
    readonly wasserstein: number
    readonly gradients: ReadonlyArray<DenseJson>
  }
}

export const ctganReference = JSON.parse(
  readFileSync(new URL("../reference/ctganReference.json", import.meta.url), "utf8")
) as CtganReference
