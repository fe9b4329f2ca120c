/** Dense symmetric k×k matrices stored row-major in a Float64Array; k is the number of latent variables. */

/** The lower-triangular L with L·Lᵀ = A, or null when A is not (numerically) positive definite. */
export const cholesky = (matrix: Float64Array, size: number): Float64Array | null => {
  const lower = new Float64Array(size * size)
  for (let i = 0; i < size; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = matrix[i * size + j]!
      for (let k = 0; k < j; k++) sum -= lower[i * size + k]! * lower[j * size + k]!
      if (i === j) {
        if (!(sum > 1e-12)) return null
        lower[i * size + i] = Math.sqrt(sum)
      } else {
        lower[i * size + j] = sum / lower[j * size + j]!
      }
    }
  }
  return lower
}

/** Eigenvalues and eigenvectors (columns of `vectors`) of a symmetric matrix by cyclic Jacobi rotations. */
export const symmetricEigen = (matrix: Float64Array, size: number) => {
  const a = Float64Array.from(matrix)
  const vectors = new Float64Array(size * size)
  for (let i = 0; i < size; i++) vectors[i * size + i] = 1
  for (let sweep = 0; sweep < 100; sweep++) {
    let offDiagonal = 0
    for (let p = 0; p < size; p++) for (let q = p + 1; q < size; q++) offDiagonal += a[p * size + q]! ** 2
    if (offDiagonal < 1e-30) break
    for (let p = 0; p < size; p++) {
      for (let q = p + 1; q < size; q++) {
        const apq = a[p * size + q]!
        if (Math.abs(apq) < 1e-300) continue
        const theta = (a[q * size + q]! - a[p * size + p]!) / (2 * apq)
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1), s = t * c
        for (let k = 0; k < size; k++) {
          const akp = a[k * size + p]!, akq = a[k * size + q]!
          a[k * size + p] = c * akp - s * akq
          a[k * size + q] = s * akp + c * akq
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p * size + k]!, aqk = a[q * size + k]!
          a[p * size + k] = c * apk - s * aqk
          a[q * size + k] = s * apk + c * aqk
        }
        for (let k = 0; k < size; k++) {
          const vkp = vectors[k * size + p]!, vkq = vectors[k * size + q]!
          vectors[k * size + p] = c * vkp - s * vkq
          vectors[k * size + q] = s * vkp + c * vkq
        }
      }
    }
  }
  const values = new Float64Array(size)
  for (let i = 0; i < size; i++) values[i] = a[i * size + i]!
  return { values, vectors }
}

/**
 * A correlation matrix made positive definite, as copulas' nearest-correlation step: negative (here: below `floor`)
 * eigenvalues raised, the matrix rebuilt from its eigenvectors and rescaled to a unit diagonal. Pairwise-complete
 * correlations and perfectly dependent columns (x and 2x) are what make it necessary.
 */
export const nearestCorrelation = (matrix: Float64Array, size: number, floor = 1e-6): Float64Array => {
  const { values, vectors } = symmetricEigen(matrix, size)
  const rebuilt = new Float64Array(size * size)
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      let sum = 0
      for (let k = 0; k < size; k++) sum += vectors[i * size + k]! * Math.max(floor, values[k]!) * vectors[j * size + k]!
      rebuilt[i * size + j] = sum
    }
  }
  const result = new Float64Array(size * size)
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      result[i * size + j] = i === j ? 1 : rebuilt[i * size + j]! / Math.sqrt(rebuilt[i * size + i]! * rebuilt[j * size + j]!)
    }
  }
  return result
}

/** The Cholesky factor of a correlation matrix, repaired first when it is not positive definite. */
export const correlationFactor = (correlation: Float64Array, size: number): { correlation: Float64Array; factor: Float64Array } => {
  const direct = cholesky(correlation, size)
  if (direct !== null) return { correlation, factor: direct }
  for (let floor = 1e-6; floor < 1; floor *= 10) {
    const repaired = nearestCorrelation(correlation, size, floor)
    const factor = cholesky(repaired, size)
    if (factor !== null) return { correlation: repaired, factor }
  }
  const identity = new Float64Array(size * size)
  for (let i = 0; i < size; i++) identity[i * size + i] = 1
  return { correlation: identity, factor: identity }
}
