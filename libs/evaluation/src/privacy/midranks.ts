/** 1-based ranks of `values` in ascending order, tied runs sharing their mean rank (scipy's rankdata "average"). */
export const midranks = (values: Float64Array): Float64Array => {
  const order = Int32Array.from({ length: values.length }, (_, i) => i).sort((a, b) => values[a]! - values[b]!)
  const ranks = new Float64Array(values.length)
  for (let start = 0; start < order.length;) {
    let end = start + 1
    while (end < order.length && values[order[end]!] === values[order[start]!]) end++
    const meanRank = (start + 1 + end) / 2
    for (let k = start; k < end; k++) ranks[order[k]!] = meanRank
    start = end
  }
  return ranks
}
