import { Document, isNode, isScalar, Scalar, visit } from "yaml"
import { compiledEntryOf, type ServiceDefinition } from "./services.ts"
import { infrastructureSettings, type Setting, settingNamed } from "./settings.ts"

/** The one image every service runs from (deploy/Dockerfile); the command picks the service. */
export const imageName = "synth-data-service"
export const partOf = "synth-data-service"
export const configMapName = "synth-config"
export const secretName = "synth-secrets"

/** Infrastructure images for compose, pinned by tag (Kubernetes uses the cluster's own Kafka, PostgreSQL and S3). */
export const infrastructureImages = {
  kafka: "apache/kafka:3.9.1",
  postgres: "postgres:16.6-bookworm",
  minio: "minio/minio:RELEASE.2025-04-22T22-12-26Z"
} as const

const header = [
  " Rendered by deploy/render.ts from deploy/services.ts and deploy/settings.ts: edit those, then run",
  "   npm run render",
  " (a unit test fails while this file and its sources disagree)."
].join("\n")

/** A service's process runs its compiled entry (deploy/build.ts; the image builds it in its build stage). */
export const processCommand = (service: ServiceDefinition) => ["node", compiledEntryOf(service)]

/** The settings a service reads, PORT aside: the infrastructure's, then its own. */
export const settingsOf = (service: ServiceDefinition): ReadonlyArray<Setting> =>
  [...new Set([...infrastructureSettings, ...service.settings])].map(settingNamed)

const usedSettings = (services: ReadonlyArray<ServiceDefinition>) =>
  [...new Map(services.flatMap(settingsOf).map((setting) => [setting.name, setting])).values()]

// ---------------------------------------------------------------------------------------------------------------
// compose

const healthcheckOf = (port: number) => ({
  // The image has no curl: Node's fetch asks /ready (compose starts dependants once a service can take traffic).
  test: [
    "CMD",
    "node",
    "-e",
    `fetch("http://127.0.0.1:${port}/ready").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))`
  ],
  interval: "10s",
  timeout: "3s",
  retries: 3,
  start_period: "60s"
})

const composeService = (service: ServiceDefinition) => ({
  image: `${imageName}:local`,
  build: { context: "..", dockerfile: "deploy/Dockerfile" },
  command: processCommand(service),
  environment: {
    ...(service.port === null ? {} : { PORT: String(service.port) }),
    ...Object.fromEntries(settingsOf(service).map((setting) => [setting.name, setting.compose]))
  },
  ...(service.port !== null && service.public
    ? { ports: [`127.0.0.1:${service.port}-${service.port + service.replicas - 1}:${service.port}`] }
    : {}),
  deploy: { replicas: service.replicas },
  healthcheck: service.port === null ? { disable: true } : healthcheckOf(service.port),
  depends_on: {
    kafka: { condition: "service_healthy" },
    postgres: { condition: "service_healthy" },
    minio: { condition: "service_healthy" }
  },
  restart: "unless-stopped",
  stop_grace_period: "30s"
})

const infrastructureServices = {
  kafka: {
    image: infrastructureImages.kafka,
    environment: {
      KAFKA_NODE_ID: "1",
      KAFKA_PROCESS_ROLES: "broker,controller",
      KAFKA_LISTENERS: "PLAINTEXT://:9092,CONTROLLER://:9093",
      KAFKA_ADVERTISED_LISTENERS: "PLAINTEXT://kafka:9092",
      KAFKA_CONTROLLER_LISTENER_NAMES: "CONTROLLER",
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
      KAFKA_CONTROLLER_QUORUM_VOTERS: "1@localhost:9093",
      KAFKA_LOG_DIRS: "/var/lib/kafka/data",
      // The services create their topics (partitions, unlimited retention): a misspelt name must not make one.
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: "false",
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: "1",
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: "1",
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: "1",
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: "0"
    },
    volumes: ["kafka-data:/var/lib/kafka/data"],
    healthcheck: {
      test: ["CMD", "/opt/kafka/bin/kafka-broker-api-versions.sh", "--bootstrap-server", "localhost:9092"],
      interval: "10s",
      timeout: "10s",
      retries: 10,
      start_period: "30s"
    },
    restart: "unless-stopped"
  },
  postgres: {
    image: infrastructureImages.postgres,
    environment: {
      POSTGRES_USER: "synth",
      POSTGRES_PASSWORD: "${POSTGRES_PASSWORD:-synth-local-only}",
      POSTGRES_DB: "synth"
    },
    volumes: ["postgres-data:/var/lib/postgresql/data"],
    healthcheck: {
      test: ["CMD", "pg_isready", "--username", "synth", "--dbname", "synth"],
      interval: "5s",
      timeout: "3s",
      retries: 10
    },
    restart: "unless-stopped"
  },
  // The services create their bucket on start.
  minio: {
    image: infrastructureImages.minio,
    command: ["server", "/data"],
    environment: {
      MINIO_ROOT_USER: "${MINIO_ROOT_USER:-synth}",
      MINIO_ROOT_PASSWORD: "${MINIO_ROOT_PASSWORD:-synth-local-only}"
    },
    volumes: ["minio-data:/data"],
    healthcheck: { test: ["CMD", "mc", "ready", "local"], interval: "5s", timeout: "3s", retries: 10 },
    restart: "unless-stopped"
  }
}

export const composeFile = (services: ReadonlyArray<ServiceDefinition>) => ({
  name: "synth",
  services: {
    ...infrastructureServices,
    ...Object.fromEntries(services.map((service) => [service.name, composeService(service)]))
  },
  volumes: { "kafka-data": {}, "postgres-data": {}, "minio-data": {} }
})

export const renderCompose = (services: ReadonlyArray<ServiceDefinition>): string => {
  const document = new Document(composeFile(services))
  document.commentBefore = [
    header,
    "",
    " The distributed runtime on one machine: Kafka, PostgreSQL, MinIO and every service as its own container.",
    "   JWT_SECRET=$(openssl rand -base64 32) docker compose -f deploy/compose.yaml up --build",
    " The gateway answers on http://127.0.0.1:8000 and :8001 (one port per replica). See deploy/README.md."
  ].join("\n")
  return toYaml(document)
}

// ---------------------------------------------------------------------------------------------------------------
// Kubernetes

export const objectName = (service: ServiceDefinition) => `synth-${service.name}`

const labelsOf = (service: ServiceDefinition) => ({
  "app.kubernetes.io/name": objectName(service),
  "app.kubernetes.io/component": service.worker === null ? "service" : "worker",
  "app.kubernetes.io/part-of": partOf
})

const selectorOf = (service: ServiceDefinition) => ({
  "app.kubernetes.io/name": objectName(service),
  "app.kubernetes.io/part-of": partOf
})

const envOf = (service: ServiceDefinition) => [
  ...(service.port === null ? [] : [{ name: "PORT", value: String(service.port) }]),
  ...settingsOf(service).map((setting) => ({
    name: setting.name,
    valueFrom: setting.secret
      ? { secretKeyRef: { name: secretName, key: setting.name } }
      : { configMapKeyRef: { name: configMapName, key: setting.name } }
  }))
]

/** Liveness asks /health (the process answers); readiness /ready (it should get traffic: docs in README). */
const probe = (path: "/health" | "/ready", periodSeconds: number, failureThreshold: number) => ({
  httpGet: { path, port: "http" },
  periodSeconds,
  timeoutSeconds: 3,
  failureThreshold
})

const deployment = (service: ServiceDefinition) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: objectName(service), labels: labelsOf(service) },
  spec: {
    // A worker's replica count belongs to its autoscaler: a fixed one here would fight it on every apply.
    ...(service.worker === null ? { replicas: service.replicas } : {}),
    selector: { matchLabels: selectorOf(service) },
    strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
    template: {
      metadata: { labels: labelsOf(service) },
      spec: {
        // The image's user (uid 1000, `node`), checked by the kubelet before the container starts.
        securityContext: {
          runAsNonRoot: true,
          runAsUser: 1000,
          runAsGroup: 1000,
          seccompProfile: { type: "RuntimeDefault" }
        },
        terminationGracePeriodSeconds: 30,
        containers: [
          {
            name: service.name,
            image: `${imageName}:0.1.0`,
            command: processCommand(service),
            ...(service.port === null ? {} : { ports: [{ name: "http", containerPort: service.port }] }),
            env: envOf(service),
            ...(service.port === null
              ? {}
              : {
                // Up to two minutes to connect and migrate before liveness counts.
                startupProbe: probe("/health", 2, 60),
                readinessProbe: probe("/ready", 5, 3),
                livenessProbe: probe("/health", 10, 3)
              }),
            resources: service.resources,
            securityContext: {
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              capabilities: { drop: ["ALL"] }
            },
            // /tmp for temporary files: the only writable place.
            volumeMounts: [{ name: "tmp", mountPath: "/tmp" }]
          }
        ],
        volumes: [{ name: "tmp", emptyDir: {} }]
      }
    }
  }
})

const kubernetesService = (service: ServiceDefinition) => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: objectName(service), labels: labelsOf(service) },
  spec: {
    selector: selectorOf(service),
    ports: [{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }]
  }
})

const autoscaler = (service: ServiceDefinition, worker: NonNullable<ServiceDefinition["worker"]>) => ({
  apiVersion: "autoscaling/v2",
  kind: "HorizontalPodAutoscaler",
  metadata: { name: objectName(service), labels: labelsOf(service) },
  spec: {
    scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: objectName(service) },
    minReplicas: service.replicas,
    maxReplicas: worker.maxReplicas,
    metrics: [
      {
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: worker.targetCpuUtilization } }
      }
    ]
  }
})

export const serviceObjects = (service: ServiceDefinition): ReadonlyArray<Record<string, unknown>> => [
  deployment(service),
  ...(service.port === null ? [] : [kubernetesService(service)]),
  ...(service.worker === null ? [] : [autoscaler(service, service.worker)])
]

export const configMap = (services: ReadonlyArray<ServiceDefinition>) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: configMapName, labels: { "app.kubernetes.io/part-of": partOf } },
  data: Object.fromEntries(
    usedSettings(services).filter((setting) => !setting.secret).map((setting) => [setting.name, setting.kubernetes])
  )
})

export const secret = (services: ReadonlyArray<ServiceDefinition>) => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name: secretName, labels: { "app.kubernetes.io/part-of": partOf } },
  type: "Opaque",
  stringData: Object.fromEntries(
    usedSettings(services).filter((setting) => setting.secret).map((setting) => [setting.name, setting.kubernetes])
  )
})

/** File name → content, for deploy/k8s/. */
export const renderKubernetes = (services: ReadonlyArray<ServiceDefinition>): Readonly<Record<string, string>> => {
  const files: Record<string, string> = {}
  const configDocument = new Document(configMap(services))
  configDocument.commentBefore = `${header}\n\n Settings that are not secret. Point KAFKA_BROKERS, DATABASE_URL's host and S3_ENDPOINT at your cluster's services.`
  files["config.yaml"] = toYaml(configDocument)

  const secretDocument = new Document(secret(services))
  secretDocument.commentBefore = header
  const stringData = secretDocument.get("stringData", true)
  if (isNode(stringData)) {
    stringData.commentBefore = [
      " PLACEHOLDERS, NOT SECRETS: replace every REPLACE-ME value before applying, better still create this",
      " Secret from your secret store (kubectl create secret generic synth-secrets --from-literal=...) and drop",
      " this file from kustomization.yaml. Every gateway replica must get the same JWT_SECRET."
    ].join("\n")
  }
  files["secret.yaml"] = toYaml(secretDocument)

  for (const service of services) {
    files[`${service.name}.yaml`] = serviceObjects(service)
      .map((object, index) => {
        const document = new Document(object)
        if (index === 0) document.commentBefore = header
        return toYaml(document)
      })
      .join("---\n")
  }

  const kustomization = new Document({
    apiVersion: "kustomize.config.k8s.io/v1beta1",
    kind: "Kustomization",
    resources: ["config.yaml", "secret.yaml", ...services.map((service) => `${service.name}.yaml`)],
    images: [{ name: imageName, newName: imageName, newTag: "0.1.0" }]
  })
  kustomization.commentBefore = `${header}\n\n kubectl apply -k deploy/k8s   (set the image with: kustomize edit set image ${imageName}=<registry>/${imageName}:<tag>)`
  files["kustomization.yaml"] = toYaml(kustomization)
  return files
}

// Strings YAML 1.1 readers (some compose and kubectl versions among them) would take for booleans get quotes.
const yaml11Booleans = /^(y|yes|n|no|true|false|on|off)$/i

const toYaml = (document: Document) => {
  visit(document, {
    Scalar: (_key, node) => {
      if (isScalar(node) && typeof node.value === "string" && yaml11Booleans.test(node.value)) {
        node.type = Scalar.QUOTE_DOUBLE
      }
    }
  })
  return document.toString({ lineWidth: 0 })
}
