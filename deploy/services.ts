/**
 * The services of the distributed runtime, one entry each. compose.yaml and k8s/ are rendered from this list and
 * settings.ts (`npm run render`), the e2e test starts its processes from it, and a unit test fails when
 * the rendered files drift from it. A new service is one more entry here.
 */
export interface ServiceDefinition {
  /** The folder under services/; the compose service; the Kubernetes objects are `synth-<name>`. */
  readonly name: string
  /** Its process, run as `node <entry>` from the repository root (the image's working directory). */
  readonly entry: string
  /** The port it serves HTTP on (PORT), /health included; null for a worker without HTTP. */
  readonly port: number | null
  /** Clients reach it: compose publishes it on the host's loopback, one port per replica from `port` on. */
  readonly public: boolean
  /** Replicas it starts with; for a worker, the autoscaler's minimum. */
  readonly replicas: number
  /**
   * Consumer-group workers scale by adding members: Kubernetes gets a HorizontalPodAutoscaler on CPU up to
   * `maxReplicas` (useful up to the partition count of the topics they consume). null for everything else.
   */
  readonly worker: { readonly maxReplicas: number; readonly targetCpuUtilization: number } | null
  /** Names from settings.ts this service reads besides the infrastructure settings every service gets. */
  readonly settings: ReadonlyArray<string>
  /** Kubernetes requests and limits of its container. */
  readonly resources: {
    readonly requests: { readonly cpu: string; readonly memory: string }
    readonly limits: { readonly cpu: string; readonly memory: string }
  }
}

/** Where `npm run build` (deploy/build.ts) writes the compiled services, one folder each. */
export const compiledDir = "dist/services"

/** The compiled form of a service's entry, the file its process runs. */
export const compiledEntryOf = (service: ServiceDefinition) => `${compiledDir}/${service.name}/main.mjs`

export const services: ReadonlyArray<ServiceDefinition> = [
  {
    name: "gateway",
    entry: "services/gateway/src/main.ts",
    port: 8000,
    public: true,
    replicas: 2,
    worker: null,
    settings: ["HOST", "JWT_SECRET", "ALLOWED_ORIGINS", "AUDITOR_EMAILS", "MAX_FILE_SIZE", "UPLOAD_INGEST_TIMEOUT",
      "PROFILE_TIMEOUT", "PII_SCAN_TIMEOUT", "EVALUATION_TIMEOUT", "MAX_GENERATED_ROWS", "GENERATOR_CANCEL_TIMEOUT",
      // POST /llm/chat asks the same OpenAI-compatible model as the PII scanner, or answers offline without a key.
      "OPENAI_API_KEY", "OPENAI_BASE_URL", "LLM_MODEL", "LLM_CHAT_TIMEOUT"],
    // scrypt takes 32 MiB per password check: the limit leaves room for a handful at once next to the heap.
    resources: { requests: { cpu: "250m", memory: "256Mi" }, limits: { cpu: "1", memory: "768Mi" } }
  },
  {
    // Parses uploads into typed tables: a consumer-group worker on the dataset topic, no HTTP.
    name: "ingest",
    entry: "services/ingest/src/main.ts",
    port: null,
    public: false,
    replicas: 1,
    worker: { maxReplicas: 6, targetCpuUtilization: 70 },
    settings: [],
    // Type inference keeps per-column evidence, not rows; the Arrow encoder buffers one batch at a time.
    resources: { requests: { cpu: "250m", memory: "256Mi" }, limits: { cpu: "2", memory: "1Gi" } }
  },
  {
    // Profiles normalised tables on request: a consumer-group worker on the dataset topic, no HTTP.
    name: "profiling",
    entry: "services/profiling/src/main.ts",
    port: null,
    public: false,
    replicas: 1,
    worker: { maxReplicas: 6, targetCpuUtilization: 70 },
    settings: [],
    // The whole table is in memory while it is profiled (columns as typed arrays, strings dictionary-encoded).
    resources: { requests: { cpu: "250m", memory: "256Mi" }, limits: { cpu: "2", memory: "2Gi" } }
  },
  {
    // Scans datasets for personal data on request: a consumer-group worker on the dataset topic, no HTTP. Reads the
    // whole table but scans a bounded sample; the AI layer is a remote model (OPENAI_*) or the bundled classifier.
    name: "privacy",
    entry: "services/privacy/src/main.ts",
    port: null,
    public: false,
    replicas: 1,
    worker: { maxReplicas: 6, targetCpuUtilization: 70 },
    settings: ["PII_SAMPLE_ROWS", "PII_AI_TIMEOUT", "OPENAI_API_KEY", "OPENAI_BASE_URL", "LLM_MODEL"],
    resources: { requests: { cpu: "250m", memory: "256Mi" }, limits: { cpu: "1", memory: "1Gi" } }
  },
  {
    // Trains generators and samples from them: a consumer-group worker on the generator topic, no HTTP. Each member
    // trains GENERATION_CONCURRENCY jobs at once in worker threads; every member follows the whole topic for
    // cancellations and the watchdog (a member that dies mid-job: its jobs start again elsewhere).
    name: "generation",
    entry: "services/generation/src/main.ts",
    port: null,
    public: false,
    replicas: 1,
    worker: { maxReplicas: 6, targetCpuUtilization: 70 },
    settings: ["GENERATION_CONCURRENCY", "GENERATION_HEARTBEAT", "GENERATION_STALL_TIMEOUT", "GENERATION_MAX_ATTEMPTS"],
    // The training table, the sampled table and the model are in memory at once, per job.
    resources: { requests: { cpu: "500m", memory: "512Mi" }, limits: { cpu: "2", memory: "4Gi" } }
  },
  {
    // Evaluates generators' outputs on request: a consumer-group worker on the evaluation topic, no HTTP. Each member
    // computes EVALUATION_CONCURRENCY evaluations at once in worker threads (a run with ML utility is tens of
    // seconds of CPU).
    name: "evaluation",
    entry: "services/evaluation/src/main.ts",
    port: null,
    public: false,
    replicas: 1,
    worker: { maxReplicas: 6, targetCpuUtilization: 70 },
    settings: ["EVALUATION_CONCURRENCY"],
    // The real, synthetic and holdout tables are in memory at once, with the samples and distance tables of a run.
    resources: { requests: { cpu: "500m", memory: "512Mi" }, limits: { cpu: "2", memory: "3Gi" } }
  }
]
