/** The deterministic samples reference/evaluation_reference.py describes: frac(i·α)·scale + shift, i = 1 … n. */
export interface SequenceSpec {
  readonly n: number
  readonly alpha: number
  readonly scale: number
  readonly shift: number
  readonly floor: boolean
}

/** The same IEEE operations as numpy's, so both sides hold the very same doubles. */
export const sequence = ({ n, alpha, scale, shift, floor }: SequenceSpec): Float64Array =>
  Float64Array.from({ length: n }, (_, k) => {
    const value = (((k + 1) * alpha) % 1) * scale + shift
    return floor ? Math.floor(value) : value
  })
