/** The mean of `values` and the sum of their squared deviations from it: two passes, each summing in order. */
export const meanAndSquaredDeviations = (values: Float64Array): { readonly mean: number; readonly squares: number } => {
  let sum = 0
  for (let i = 0; i < values.length; i++) sum += values[i]!
  const mean = sum / values.length
  let squares = 0
  for (let i = 0; i < values.length; i++) squares += (values[i]! - mean) ** 2
  return { mean, squares }
}
