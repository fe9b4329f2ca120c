import type { DatasetId, PiiScanKind } from "@synth/contracts"
import type { PiiScan } from "@synth/pii"
import type { AiLayerInfo } from "./ai/AiLayer.ts"

/** The AI layer's part in an enhanced scan; `applied: false` when it failed and the basic result stands. */
export interface AiLayerOutcome extends AiLayerInfo {
  readonly applied: boolean
}

/**
 * The sensitive-data detection result as the API returns it and the blob store keeps it: the spec's fields first
 * (dataset_id, pii_detected, risk_level, findings, overall_risk_assessment), then the additions. Sample values are
 * already masked by the scan; nothing here holds a raw value.
 */
export const piiResource = (options: {
  readonly datasetId: DatasetId
  readonly scan: PiiScanKind
  readonly result: PiiScan
  readonly aiLayer: AiLayerOutcome | null
  readonly warnings: ReadonlyArray<string>
  readonly requestedAt: string
}) => {
  const { result } = options
  return {
    dataset_id: options.datasetId,
    pii_detected: result.pii_detected,
    risk_level: result.risk_level,
    findings: result.findings,
    overall_risk_assessment: result.overall_risk_assessment,
    scan: options.scan,
    quasi_identifiers: result.quasi_identifiers,
    identifiers: result.identifiers,
    scanned_rows: result.scanned_rows,
    total_rows: result.total_rows,
    ai_layer: options.aiLayer,
    warnings: options.warnings,
    requested_at: options.requestedAt
  }
}
export type PiiResource = ReturnType<typeof piiResource>
