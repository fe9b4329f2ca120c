/**
 * The settings the deploy files give the services, with where each value comes from. Secrets come from the
 * environment in compose and from the Secret in Kubernetes, never from a literal in a file. Every name here is in
 * a configuration table of the README (a test checks it).
 */
export interface Setting {
  readonly name: string
  readonly secret: boolean
  /** The value in compose.yaml; `${VAR}` is compose interpolation from the shell or an .env file. */
  readonly compose: string
  /** The ConfigMap's value, or for a secret the Secret's placeholder (never a real secret). */
  readonly kubernetes: string
}

/** What operators must replace: a placeholder no real deployment could mistake for a value. */
export const placeholder = (what: string) => `REPLACE-ME-${what}`

const setting = (name: string, values: Omit<Setting, "name" | "secret">, secret = false): Setting => ({
  name,
  secret,
  ...values
})

export const settings: ReadonlyArray<Setting> = [
  setting("KAFKA_BROKERS", { compose: "kafka:9092", kubernetes: "kafka-bootstrap:9092" }),
  // Of the topics the services create on first start: partitions bound how many workers of a group share the work.
  setting("KAFKA_PARTITIONS", { compose: "3", kubernetes: "6" }),
  setting("KAFKA_REPLICATION_FACTOR", { compose: "1", kubernetes: "3" }),
  setting(
    "DATABASE_URL",
    {
      compose: "postgres://synth:${POSTGRES_PASSWORD:-synth-local-only}@postgres:5432/synth",
      kubernetes: `postgres://synth:${placeholder("password")}@postgres:5432/synth`
    },
    true
  ),
  setting("S3_ENDPOINT", { compose: "http://minio:9000", kubernetes: "http://minio:9000" }),
  setting("S3_BUCKET", { compose: "synth", kubernetes: "synth" }),
  setting("S3_REGION", { compose: "us-east-1", kubernetes: "us-east-1" }),
  setting(
    "S3_ACCESS_KEY",
    { compose: "${MINIO_ROOT_USER:-synth}", kubernetes: placeholder("access-key") },
    true
  ),
  setting(
    "S3_SECRET_KEY",
    { compose: "${MINIO_ROOT_PASSWORD:-synth-local-only}", kubernetes: placeholder("secret-key") },
    true
  ),
  setting(
    "JWT_SECRET",
    {
      compose: "${JWT_SECRET:?set JWT_SECRET to a random secret of at least 32 bytes: openssl rand -base64 32}",
      // Shorter than the 32 bytes the gateway demands: a Secret applied unchanged stops the gateway at start.
      kubernetes: placeholder("jwt-secret")
    },
    true
  ),
  setting("HOST", { compose: "0.0.0.0", kubernetes: "0.0.0.0" }),
  setting("ALLOWED_ORIGINS", { compose: "${ALLOWED_ORIGINS:-}", kubernetes: "" }),
  setting("AUDITOR_EMAILS", { compose: "${AUDITOR_EMAILS:-}", kubernetes: "" }),
  setting("MAX_FILE_SIZE", { compose: "${MAX_FILE_SIZE:-104857600}", kubernetes: "104857600" }),
  setting("UPLOAD_INGEST_TIMEOUT", { compose: "${UPLOAD_INGEST_TIMEOUT:-120 seconds}", kubernetes: "120 seconds" }),
  setting("PROFILE_TIMEOUT", { compose: "${PROFILE_TIMEOUT:-120 seconds}", kubernetes: "120 seconds" }),
  setting("PII_SCAN_TIMEOUT", { compose: "${PII_SCAN_TIMEOUT:-120 seconds}", kubernetes: "120 seconds" }),
  setting("EVALUATION_TIMEOUT", { compose: "${EVALUATION_TIMEOUT:-25 seconds}", kubernetes: "25 seconds" }),
  setting("PII_SAMPLE_ROWS", { compose: "${PII_SAMPLE_ROWS:-10000}", kubernetes: "10000" }),
  setting("MAX_GENERATED_ROWS", { compose: "${MAX_GENERATED_ROWS:-10000000}", kubernetes: "10000000" }),
  setting("GENERATOR_CANCEL_TIMEOUT", { compose: "${GENERATOR_CANCEL_TIMEOUT:-5 seconds}", kubernetes: "5 seconds" }),
  // One training per core of the container (its CPU limit): more would only share the cores.
  setting("GENERATION_CONCURRENCY", { compose: "${GENERATION_CONCURRENCY:-2}", kubernetes: "2" }),
  setting("GENERATION_HEARTBEAT", { compose: "${GENERATION_HEARTBEAT:-2 seconds}", kubernetes: "2 seconds" }),
  setting("GENERATION_STALL_TIMEOUT", { compose: "${GENERATION_STALL_TIMEOUT:-10 seconds}", kubernetes: "10 seconds" }),
  setting("GENERATION_MAX_ATTEMPTS", { compose: "${GENERATION_MAX_ATTEMPTS:-2}", kubernetes: "2" }),
  // One evaluation per core of the container (its CPU limit).
  setting("EVALUATION_CONCURRENCY", { compose: "${EVALUATION_CONCURRENCY:-2}", kubernetes: "2" }),
  setting("PII_AI_TIMEOUT", { compose: "${PII_AI_TIMEOUT:-20 seconds}", kubernetes: "20 seconds" }),
  // Optional: empty means the enhanced scan uses the bundled local classifier instead of a remote model. In Kubernetes
  // replace the placeholder with a key or with an empty string; left as is, the provider refuses it and enhanced scans
  // answer the basic result with a warning.
  setting("OPENAI_API_KEY", { compose: "${OPENAI_API_KEY:-}", kubernetes: placeholder("openai-api-key-or-empty") }, true),
  setting("OPENAI_BASE_URL", { compose: "${OPENAI_BASE_URL:-}", kubernetes: "" }),
  setting("LLM_MODEL", { compose: "${LLM_MODEL:-gpt-4o-mini}", kubernetes: "gpt-4o-mini" }),
  setting("LLM_CHAT_TIMEOUT", { compose: "${LLM_CHAT_TIMEOUT:-20 seconds}", kubernetes: "20 seconds" })
]

/** Every service reads these: where the event log, the read models and the blobs are. */
export const infrastructureSettings: ReadonlyArray<string> = [
  "KAFKA_BROKERS",
  "KAFKA_PARTITIONS",
  "KAFKA_REPLICATION_FACTOR",
  "DATABASE_URL",
  "S3_ENDPOINT",
  "S3_BUCKET",
  "S3_REGION",
  "S3_ACCESS_KEY",
  "S3_SECRET_KEY"
]

export const settingNamed = (name: string): Setting => {
  const found = settings.find((candidate) => candidate.name === name)
  if (found === undefined) throw new Error(`deploy/settings.ts has no setting ${name}`)
  return found
}
