import type { SynthTable } from "@synth/synth"
import { takeRows } from "./sampleRows.ts"

/**
 * The real table split into the rows a generator trained on (members) and the rows it held out (non-members), from
 * the held-out row indices it recorded. No indices: every row is a member.
 */
export const splitHoldout = (real: SynthTable, heldOutRows: Uint32Array | null): { readonly members: SynthTable; readonly heldOut: SynthTable | null } => {
  if (heldOutRows === null || heldOutRows.length === 0) return { members: real, heldOut: null }
  const held = new Uint8Array(real.rowCount)
  for (const row of heldOutRows) {
    if (row >= real.rowCount) throw new Error(`the generator's held-out rows do not fit the real table (${real.rowCount} rows)`)
    held[row] = 1
  }
  const memberRows = Int32Array.from({ length: real.rowCount }, (_, row) => row).filter((row) => held[row] === 0)
  return { members: takeRows(real, memberRows), heldOut: takeRows(real, Int32Array.from(heldOutRows)) }
}
