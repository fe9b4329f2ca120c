/**
 * A small Nelder–Mead minimiser for the two-parameter fits (truncated normal): scipy's optimisers are not available
 * here, and the objective is cheap (sufficient statistics), so a derivative-free simplex is enough.
 */
export const nelderMead = (
  objective: (point: ReadonlyArray<number>) => number,
  start: ReadonlyArray<number>,
  steps: ReadonlyArray<number>,
  maxIterations = 500,
  tolerance = 1e-10
): Array<number> => {
  const dimension = start.length
  const simplex: Array<Array<number>> = [[...start]]
  for (let i = 0; i < dimension; i++) {
    const vertex = [...start]
    vertex[i] = vertex[i]! + steps[i]!
    simplex.push(vertex)
  }
  const values = simplex.map(objective)
  const combine = (a: ReadonlyArray<number>, b: ReadonlyArray<number>, t: number) => a.map((value, i) => value + t * (b[i]! - value))
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const order = values.map((_, i) => i).sort((i, j) => values[i]! - values[j]!)
    const sorted = order.map((i) => simplex[i]!)
    const sortedValues = order.map((i) => values[i]!)
    for (let i = 0; i <= dimension; i++) {
      simplex[i] = sorted[i]!
      values[i] = sortedValues[i]!
    }
    const best = values[0]!, worst = values[dimension]!
    if (Math.abs(worst - best) <= tolerance * (Math.abs(best) + tolerance)) break
    const centroid = new Array<number>(dimension).fill(0)
    for (let i = 0; i < dimension; i++) for (let j = 0; j < dimension; j++) centroid[j]! += simplex[i]![j]! / dimension
    const reflected = combine(centroid, simplex[dimension]!, -1)
    const reflectedValue = objective(reflected)
    if (reflectedValue < values[0]!) {
      const expanded = combine(centroid, simplex[dimension]!, -2)
      const expandedValue = objective(expanded)
      if (expandedValue < reflectedValue) {
        simplex[dimension] = expanded
        values[dimension] = expandedValue
      } else {
        simplex[dimension] = reflected
        values[dimension] = reflectedValue
      }
    } else if (reflectedValue < values[dimension - 1]!) {
      simplex[dimension] = reflected
      values[dimension] = reflectedValue
    } else {
      const outside = reflectedValue < values[dimension]!
      const contracted = combine(centroid, outside ? reflected : simplex[dimension]!, 0.5)
      const contractedValue = objective(contracted)
      if (contractedValue < Math.min(reflectedValue, values[dimension]!)) {
        simplex[dimension] = contracted
        values[dimension] = contractedValue
      } else {
        for (let i = 1; i <= dimension; i++) {
          simplex[i] = combine(simplex[0]!, simplex[i]!, 0.5)
          values[i] = objective(simplex[i]!)
        }
      }
    }
  }
  let bestIndex = 0
  for (let i = 1; i <= dimension; i++) if (values[i]! < values[bestIndex]!) bestIndex = i
  return simplex[bestIndex]!
}
