/** Gauss–Legendre nodes and weights on [0, 1], computed once by Newton's method on the Legendre polynomial. */
export const gaussLegendre = (points: number): { readonly nodes: Float64Array; readonly weights: Float64Array } => {
  const nodes = new Float64Array(points), weights = new Float64Array(points)
  for (let i = 0; i < Math.ceil(points / 2); i++) {
    let x = Math.cos((Math.PI * (i + 0.75)) / (points + 0.5))
    let derivative = 0
    for (let iteration = 0; iteration < 100; iteration++) {
      let p0 = 1, p1 = 0
      for (let j = 0; j < points; j++) {
        const p2 = p1
        p1 = p0
        p0 = ((2 * j + 1) * x * p1 - j * p2) / (j + 1)
      }
      derivative = (points * (x * p0 - p1)) / (x * x - 1)
      const step = p0 / derivative
      x -= step
      if (Math.abs(step) < 1e-15) break
    }
    const weight = 2 / ((1 - x * x) * derivative * derivative)
    nodes[i] = (1 - x) / 2
    nodes[points - 1 - i] = (1 + x) / 2
    weights[i] = weight / 2
    weights[points - 1 - i] = weight / 2
  }
  return { nodes, weights }
}
