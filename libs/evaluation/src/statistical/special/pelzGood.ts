const PI_SQUARED = Math.PI ** 2
const PI_FOUR = Math.PI ** 4
const PI_SIX = Math.PI ** 6
const SQRT_2PI = Math.sqrt(2 * Math.PI)
const SQRT3 = Math.sqrt(3)
const MIN_LOG = -708

/**
 * The Pelz–Good approximation of P(D_n ≤ x) (Li-Chien/Korolyuk's expansion in 1/√n, transformed with Jacobi theta
 * functions for small z = x√n), as scipy's _kolmogn_PelzGood, which it uses for large n and small n·x².
 */
export const pelzGoodCdf = (n: number, x: number): number => {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const z = Math.sqrt(n) * x
  const z2 = z ** 2, z3 = z ** 3, z4 = z ** 4, z6 = z ** 6
  const qLog = -PI_SQUARED / 8 / z2
  if (qLog < MIN_LOG) return 0
  let q = Math.exp(qLog)

  const k1a = -z2, k1b = PI_SQUARED / 4
  const k2a = 6 * z6 + 2 * z4, k2b = ((2 * z4 - 5 * z2) * PI_SQUARED) / 4, k2c = (PI_FOUR * (1 - 2 * z2)) / 16
  const k3d = (PI_SIX * (5 - 30 * z2)) / 64
  const k3c = (PI_FOUR * (-60 * z2 + 212 * z4)) / 16
  const k3b = (PI_SQUARED * (135 * z4 - 96 * z6)) / 4
  const k3a = -30 * z6 - 90 * z ** 8

  // Horner over the odd terms: Σ c_m q^(m²), m = 2k − 1.
  const terms = [0, 0, 0, 0]
  const maxK = Math.ceil((16 * z) / Math.PI)
  for (let k = maxK; k > 0; k--) {
    const m = 2 * k - 1
    const m2 = m ** 2, m4 = m ** 4, m6 = m ** 6
    const qPower = q ** (8 * k)
    const coefficients = [1, k1a + k1b * m2, k2a + k2b * m2 + k2c * m4, k3a + k3b * m2 + k3c * m4 + k3d * m6]
    for (let i = 0; i < 4; i++) terms[i] = terms[i]! * qPower + coefficients[i]!
  }
  const divisors = [z, 6 * z4, 72 * z ** 7, 6480 * z ** 10]
  for (let i = 0; i < 4; i++) terms[i] = (terms[i]! * q * SQRT_2PI) / divisors[i]!

  // The sums over all integers k in K₂ and K₃.
  q = Math.exp(-PI_SQUARED / 2 / z2)
  let k2Extra = 0, k3Extra = 0
  const sqrt3z = SQRT3 * z
  for (let k = maxK; k > 0; k--) {
    const k2 = k ** 2
    const qPower = q ** k2
    k2Extra += k2 * qPower
    k3Extra += (sqrt3z + Math.PI * k) * (sqrt3z - Math.PI * k) * k2 * qPower
  }
  terms[2]! += (k2Extra * PI_SQUARED * SQRT_2PI) / (-36 * z3)
  terms[3]! += (k3Extra * PI_SQUARED * SQRT_2PI) / (216 * z6)
  let sum = 0
  for (let i = 0; i < 4; i++) sum += terms[i]! / n ** (i / 2)
  return sum
}
