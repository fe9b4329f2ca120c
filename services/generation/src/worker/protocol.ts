import type { ColumnHandling, ProtectionCounts, ProtectionSettings, ResolvedColumn } from "@synth/contracts"
import type { ScanSummary } from "@synth/protect"
import type { RuleProblem, TrainingPrivacy, WidthColumn } from "@synth/synth"

/**
 * Messages between a generation job and its worker thread. Bytes (tables as Arrow IPC, artifacts as JSON) cross
 * without copies: the job's table in a SharedArrayBuffer (readShared), the worker's results as transferred
 * ArrayBuffers; the worker does every CPU-heavy step: decoding the table, fitting, sampling and encoding the output.
 */
export interface TrainingParameters {
  readonly seed: number
  readonly epochs: number | null
  readonly batchSize: number | null
  readonly targetEpsilon: number | null
  /** 2 when the job holds a second core for a data-parallel neural training. */
  readonly threads: 1 | 2
  /** dp-ctgan: the secret its noise is drawn with (GenerationConfig.noiseSecret); absent for the other models. */
  readonly noiseSecret?: string
}

/** The dataset's latest stored scan, which the column roles come from; null: none stored, the worker runs the basic scan. */
export interface StoredScan {
  readonly kind: "basic" | "enhanced"
  readonly result: ScanSummary
}

export type JobRequest =
  | {
    readonly kind: "train"
    readonly generator: "ctgan" | "dp-ctgan" | "tvae" | "gaussian_copula"
    readonly table: Uint8Array
    readonly parameters: TrainingParameters
    readonly numRows: number
    readonly scan: StoredScan | null
    readonly overrides: Readonly<Record<string, ColumnHandling>>
    readonly protection: ProtectionSettings
    /** Every output row obeys these, and so does every later sample of the model (RuleRequest). */
    readonly constraints?: RuleRequest["constraints"]
    /** The output's rows meet these; later samples have their own (RuleRequest). */
    readonly conditions?: RuleRequest["conditions"]
  }
  | {
    readonly kind: "sample"
    readonly artifact: Uint8Array
    /** The real-data filters stored beside a protected model (null for a model trained before them). */
    readonly filters: Uint8Array | null
    readonly numRows: number
    readonly seed: number
    /** The rows meet these, besides the constraints stored with the model (RuleRequest). */
    readonly conditions?: RuleRequest["conditions"]
  }

/**
 * A request's `constraints` and `conditions` as the API takes them (docs/generation.md, "Constraints and conditional
 * sampling"): the gateway checks them against the dataset's profile (validateRules) and passes them on as received;
 * the worker checks them again against the table itself before training, and refuses the job with the problems.
 */
export interface RuleRequest {
  readonly constraints?: ReadonlyArray<unknown> | undefined
  readonly conditions?: Readonly<Record<string, unknown>> | undefined
}

/**
 * Why a job was refused, where the service may answer otherwise than with a failed job: `invalid_rules` (the
 * constraints or conditions do not fit the data: the gateway's 422, when it could not tell before), `conditions_unmet`
 * and `constraints_unmet` (rejection sampling spent its budget).
 */
export type RefusalReason = "invalid_rules" | "conditions_unmet" | "constraints_unmet"

/** A column of the output table as the dataset read model describes it (no values). */
export interface OutputColumn {
  readonly name: string
  readonly type: "integer" | "float" | "boolean" | "date" | "datetime" | "string"
  readonly missingCount: number
  readonly sourceFormat: string | null
}

export type WorkerMessage =
  | {
    readonly kind: "loaded"
    readonly trainingRows: number
    readonly columns: ReadonlyArray<WidthColumn>
  }
  | {
    /** Roles resolved and rows split, before training: what `generator.prepared` says. */
    readonly kind: "prepared"
    readonly scan: "basic" | "enhanced" | "generation"
    readonly columns: ReadonlyArray<ResolvedColumn>
    readonly trainingRows: number
    readonly holdoutRows: number
  }
  | { readonly kind: "progress"; readonly phase: "fitting" | "sampling"; readonly fraction: number }
  | { readonly kind: "epoch"; readonly epoch: number; readonly losses: Readonly<Record<string, number>> }
  | {
    readonly kind: "done"
    /** The trained model as JSON (training only) and what it is. */
    readonly artifact: Uint8Array | null
    readonly model: {
      readonly format: string
      readonly formatVersion: number
      /** What a dp-ctgan training spent; null for the other generators. */
      readonly privacy: TrainingPrivacy | null
    } | null
    readonly table: Uint8Array
    /** The real-data filters to store beside the model (training only). */
    readonly filters: Uint8Array | null
    readonly protection: ProtectionCounts | null
    readonly rowCount: number
    readonly columns: ReadonlyArray<OutputColumn>
    readonly fitMs: number
    readonly sampleMs: number
  }
  /** The job cannot succeed on this input (or this build): a message for the user, naming columns, never values. */
  | {
    readonly kind: "refused"
    readonly message: string
    /** Absent for the refusals that predate the rules (the model could not be trained, the artifact is unreadable). */
    readonly reason?: RefusalReason
    /** invalid_rules: each field's problem (`constraints[0].low`, `conditions.age.min`). */
    readonly problems?: ReadonlyArray<RuleProblem>
  }
