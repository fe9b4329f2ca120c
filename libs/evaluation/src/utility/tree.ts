import type { BinnedMatrix } from "./binning.ts"

/**
 * A binary tree in flat arrays. Internal node n sends a row left when its bin of `feature[n]` is ≤ `bin[n]`;
 * a leaf has `feature[n] = -1` and its output in `output[n * outputWidth …]` (class shares or a value).
 */
export interface Tree {
  readonly feature: Int32Array
  readonly bin: Int32Array
  readonly left: Int32Array
  readonly right: Int32Array
  readonly output: Float64Array
  readonly outputWidth: number
}

/** Grows a tree's arrays as nodes are added (node 0 is the root). */
export class TreeBuilder {
  private feature: Array<number> = []
  private bin: Array<number> = []
  private left: Array<number> = []
  private right: Array<number> = []
  private output: Array<number> = []

  private readonly outputWidth: number

  constructor(outputWidth: number) {
    this.outputWidth = outputWidth
  }

  /** A node that is a leaf until `split` turns it into an internal one. */
  addLeaf(output: ArrayLike<number>): number {
    const node = this.feature.length
    this.feature.push(-1)
    this.bin.push(0)
    this.left.push(-1)
    this.right.push(-1)
    for (let k = 0; k < this.outputWidth; k++) this.output.push(output[k]!)
    return node
  }

  split(node: number, feature: number, bin: number, left: number, right: number): void {
    this.feature[node] = feature
    this.bin[node] = bin
    this.left[node] = left
    this.right[node] = right
  }

  build(): Tree {
    return {
      feature: Int32Array.from(this.feature),
      bin: Int32Array.from(this.bin),
      left: Int32Array.from(this.left),
      right: Int32Array.from(this.right),
      output: Float64Array.from(this.output),
      outputWidth: this.outputWidth
    }
  }
}

/** The leaf `row` of `data` lands in. */
export const leafOf = (tree: Tree, data: BinnedMatrix, row: number): number => {
  const offset = row * data.featureCount
  let node = 0
  while (tree.feature[node]! >= 0) node = data.bins[offset + tree.feature[node]!]! <= tree.bin[node]! ? tree.left[node]! : tree.right[node]!
  return node
}

/**
 * Stable in-place partition of `rows[start, end)` by a split (rows that go left first, each side in its old order,
 * so rows stay ascending and memory reads stay sequential); returns where the right side starts.
 */
export const partitionRows = (rows: Int32Array, start: number, end: number, data: BinnedMatrix, feature: number, bin: number, scratch: Int32Array): number => {
  let write = start, spilled = 0
  for (let i = start; i < end; i++) {
    const row = rows[i]!
    if (data.bins[row * data.featureCount + feature]! <= bin) rows[write++] = row
    else scratch[spilled++] = row
  }
  rows.set(scratch.subarray(0, spilled), write)
  return write
}
