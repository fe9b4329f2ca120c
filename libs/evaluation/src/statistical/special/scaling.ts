/** 2^128 and its inverse: the step scipy's Kolmogorov recursions rescale by to stay inside double range. */
export const TWO_POW_128 = 2 ** 128
export const TWO_POW_MINUS_128 = 2 ** -128

/** value · 2^exponent without overflowing or underflowing the factor on the way (C's ldexp). */
export const ldexp = (value: number, exponent: number): number => {
  let result = value
  let remaining = exponent
  while (remaining > 1000) {
    result *= 2 ** 1000
    remaining -= 1000
  }
  while (remaining < -1000) {
    result *= 2 ** -1000
    remaining += 1000
  }
  return result * 2 ** remaining
}

export const clipProbability = (p: number): number => Math.min(1, Math.max(0, p))
