import { Config, Duration, Schema } from "effect"

/** The gateway's settings; every one has an embedded default. */
export const GatewayConfig = Config.all({
  serviceName: Config.String("SERVICE_NAME").pipe(Config.withDefault("synth-data-service")),
  /** Comma-separated origins allowed by CORS (spaces around commas ignored); empty allows none (same-origin and non-browser clients only). */
  allowedOrigins: Config.Array(Schema.Trim, "ALLOWED_ORIGINS").pipe(Config.withDefault([] as Array<string>)),
  /** Comma-separated emails that get the auditor role. */
  auditorEmails: Config.Array(Schema.Trim, "AUDITOR_EMAILS").pipe(Config.withDefault([] as Array<string>)),
  userRequestsPerMinute: Config.Int("RATE_LIMIT_PER_MINUTE").pipe(Config.withDefault(600)),
  /** Per client address on register, login and refresh: the brute-force guard. */
  authRequestsPerMinute: Config.Int("AUTH_RATE_LIMIT_PER_MINUTE").pipe(Config.withDefault(30)),
  /** How long a command waits for its own events to reach the read models before answering 503. */
  readYourWritesTimeout: Config.Duration("READ_YOUR_WRITES_TIMEOUT").pipe(Config.withDefault(Duration.seconds(10))),
  /** Largest accepted upload in bytes (100 MB by default), enforced while the file streams in. */
  maxFileSize: Config.schema(Schema.Int.check(Schema.makeFilter((bytes: number) => bytes > 0, { message: "MAX_FILE_SIZE is a positive number of bytes" })), "MAX_FILE_SIZE").pipe(
    Config.withDefault(104_857_600)
  ),
  /** How long an upload waits for ingestion before answering 202 (still processing) instead of 201. */
  uploadIngestTimeout: Config.Duration("UPLOAD_INGEST_TIMEOUT").pipe(Config.withDefault(Duration.seconds(120))),
  /** How long POST /datasets/{id}/profile waits for the profile before answering 202 (still running) instead of 200. */
  profileTimeout: Config.Duration("PROFILE_TIMEOUT").pipe(Config.withDefault(Duration.seconds(120))),
  /** How long a POST /datasets/{id}/pii-detection(-enhanced) waits for the result before answering 202 instead. */
  piiScanTimeout: Config.Duration("PII_SCAN_TIMEOUT").pipe(Config.withDefault(Duration.seconds(120))),
  /** The most rows one generation or sample request may ask for. */
  maxGeneratedRows: Config.schema(Schema.Int.check(Schema.makeFilter((rows: number) => rows >= 1, { message: "MAX_GENERATED_ROWS is at least 1" })), "MAX_GENERATED_ROWS").pipe(
    Config.withDefault(10_000_000)
  ),
  /** How long POST /generators/{id}/cancel waits for the job to stop before answering 202 instead of 200. */
  cancelTimeout: Config.Duration("GENERATOR_CANCEL_TIMEOUT").pipe(Config.withDefault(Duration.seconds(5))),
  /** How long POST /evaluations/quick/{id} waits for the result before answering 202 (still running) instead of 200. */
  evaluationTimeout: Config.Duration("EVALUATION_TIMEOUT").pipe(Config.withDefault(Duration.seconds(25)))
})
export type GatewayConfig = Config.Success<typeof GatewayConfig>
