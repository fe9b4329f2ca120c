// deploy/k8s without a cluster: every object is a kind its apiVersion serves, selectors select the pods they mean,
// Services reach container ports, every referenced ConfigMap/Secret key exists, and the pods run as they should.
import { describe, expect, it } from "@effect/vitest"
import { parseAllDocuments } from "yaml"
import { configMapName, renderKubernetes, secretName, serviceObjects } from "../manifests.ts"
import { type ServiceDefinition, services as deployedServices } from "../services.ts"
import { documentedSettings, entryFilesOf, exists, kubernetesFiles, yamlDocuments } from "./files.ts"

interface KubernetesObject {
  readonly apiVersion: string
  readonly kind: string
  readonly metadata: { readonly name: string; readonly labels?: Readonly<Record<string, string>> }
  readonly spec?: any
  readonly data?: Readonly<Record<string, string>>
  readonly stringData?: Readonly<Record<string, string>>
  readonly resources?: ReadonlyArray<string>
}

const knownKinds: Readonly<Record<string, string>> = {
  Deployment: "apps/v1",
  Service: "v1",
  ConfigMap: "v1",
  Secret: "v1",
  HorizontalPodAutoscaler: "autoscaling/v2",
  Kustomization: "kustomize.config.k8s.io/v1beta1"
}

const dns1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/

const load = (): ReadonlyArray<KubernetesObject & { readonly file: string }> =>
  kubernetesFiles().flatMap((file) =>
    yamlDocuments(`deploy/k8s/${file}`).map((object) => ({ ...(object as unknown as KubernetesObject), file }))
  )

/** The same checks for any set of objects: the committed files, or what a list with a worker would render. */
const checkObjects = (objects: ReadonlyArray<KubernetesObject>, definitions: ReadonlyArray<ServiceDefinition> = deployedServices) => {
  const ofKind = (kind: string) => objects.filter((object) => object.kind === kind)
  const deployments = ofKind("Deployment")
  const configMaps = ofKind("ConfigMap")
  const secrets = ofKind("Secret")

  for (const object of objects) {
    expect(knownKinds[object.kind], `${object.kind} is a kind we know`).toBeDefined()
    expect(object.apiVersion, object.kind).toBe(knownKinds[object.kind])
    if (object.kind !== "Kustomization") expect(object.metadata.name, object.kind).toMatch(dns1123)
  }
  for (const kind of Object.keys(knownKinds).filter((candidate) => candidate !== "Kustomization")) {
    const names = ofKind(kind).map((object) => object.metadata.name)
    expect(new Set(names).size, `${kind} names are unique`).toBe(names.length)
  }

  for (const deployment of deployments) {
    const name = deployment.metadata.name
    const selector: Record<string, string> = deployment.spec.selector.matchLabels
    const podLabels: Record<string, string> = deployment.spec.template.metadata.labels
    expect(Object.keys(selector).length, `${name} selects by labels`).toBeGreaterThan(0)
    for (const [key, value] of Object.entries(selector)) expect(podLabels[key], `${name}: pod label ${key}`).toBe(value)

    const pod = deployment.spec.template.spec
    expect(pod.securityContext.runAsNonRoot, name).toBe(true)
    expect(pod.securityContext.runAsUser, name).not.toBe(0)
    for (const container of pod.containers) {
      for (const entry of entryFilesOf(container.command ?? [], definitions)) expect(exists(entry), `${name}: ${entry}`).toBe(true)
      expect(container.securityContext.allowPrivilegeEscalation, name).toBe(false)
      for (const bound of ["requests", "limits"]) {
        expect(container.resources?.[bound]?.cpu, `${name}: ${bound}.cpu`).toBeDefined()
        expect(container.resources?.[bound]?.memory, `${name}: ${bound}.memory`).toBeDefined()
      }
      const ports: ReadonlyArray<{ name: string; containerPort: number }> = container.ports ?? []
      if (ports.length > 0) {
        // Liveness (and start-up): the process answers. Readiness: it should get traffic.
        const paths: Record<string, string> = { startupProbe: "/health", readinessProbe: "/ready", livenessProbe: "/health" }
        for (const probe of ["startupProbe", "readinessProbe", "livenessProbe"]) {
          expect(container[probe]?.httpGet?.path, `${name}: ${probe}`).toBe(paths[probe])
          const port = container[probe].httpGet.port
          expect(ports.some((candidate) => candidate.name === port || candidate.containerPort === port), `${name}: ${probe} port`).toBe(true)
        }
        const portVariable = container.env.find((variable: { name: string }) => variable.name === "PORT")
        expect(Number(portVariable?.value), `${name}: PORT is the container port`).toBe(ports[0]?.containerPort)
      }
      for (const variable of container.env ?? []) {
        const configKey = variable.valueFrom?.configMapKeyRef
        const secretKey = variable.valueFrom?.secretKeyRef
        if (configKey !== undefined) {
          const source = configMaps.find((candidate) => candidate.metadata.name === configKey.name)
          expect(source, `${name}: ConfigMap ${configKey.name}`).toBeDefined()
          expect(Object.keys(source?.data ?? {}), `${name}: ${variable.name}`).toContain(configKey.key)
        }
        if (secretKey !== undefined) {
          const source = secrets.find((candidate) => candidate.metadata.name === secretKey.name)
          expect(source, `${name}: Secret ${secretKey.name}`).toBeDefined()
          expect(Object.keys(source?.stringData ?? source?.data ?? {}), `${name}: ${variable.name}`).toContain(secretKey.key)
        }
        expect(configKey !== undefined || secretKey !== undefined || variable.value !== undefined, variable.name).toBe(true)
      }
    }
  }

  for (const service of ofKind("Service")) {
    const selector: Record<string, string> = service.spec.selector
    const targets = deployments.filter((deployment) =>
      Object.entries(selector).every(([key, value]) => deployment.spec.template.metadata.labels[key] === value)
    )
    expect(targets.map((deployment) => deployment.metadata.name), `Service ${service.metadata.name} selects one Deployment`).toHaveLength(1)
    const containerPorts: ReadonlyArray<{ name: string; containerPort: number }> =
      targets[0]!.spec.template.spec.containers.flatMap((container: { ports?: unknown }) => container.ports ?? [])
    for (const port of service.spec.ports) {
      const matches = containerPorts.some((candidate) => candidate.name === port.targetPort || candidate.containerPort === port.targetPort)
      expect(matches, `Service ${service.metadata.name} targets ${port.targetPort}`).toBe(true)
    }
  }

  for (const autoscaler of ofKind("HorizontalPodAutoscaler")) {
    const target = autoscaler.spec.scaleTargetRef
    const deployment = deployments.find((candidate) => candidate.metadata.name === target.name)
    expect({ apiVersion: target.apiVersion, kind: target.kind, found: deployment !== undefined }).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      found: true
    })
    expect(autoscaler.spec.maxReplicas).toBeGreaterThanOrEqual(autoscaler.spec.minReplicas)
    // The autoscaler owns the replica count.
    expect(deployment?.spec.replicas, `${target.name} leaves replicas to its autoscaler`).toBeUndefined()
  }
}

describe("deploy/k8s", () => {
  const objects = load()

  it("is consistent: kinds, selectors, ports, ConfigMap and Secret keys, probes, resources, non-root", () => {
    checkObjects(objects)
  })

  it("has a Deployment per service of deploy/services.ts, a Service per HTTP one, an autoscaler per worker", () => {
    const names = (kind: string) => objects.filter((object) => object.kind === kind).map((object) => object.metadata.name).sort()
    expect(names("Deployment")).toEqual(deployedServices.map((service) => `synth-${service.name}`).sort())
    expect(names("Service")).toEqual(deployedServices.filter((service) => service.port !== null).map((service) => `synth-${service.name}`).sort())
    expect(names("HorizontalPodAutoscaler")).toEqual(deployedServices.filter((service) => service.worker !== null).map((service) => `synth-${service.name}`).sort())
    for (const service of deployedServices.filter((candidate) => candidate.worker === null)) {
      const deployment = objects.find((object) => object.kind === "Deployment" && object.metadata.name === `synth-${service.name}`)
      expect(deployment?.spec.replicas, service.name).toBe(service.replicas)
    }
  })

  it("keeps secrets out of the ConfigMap and only placeholders in the Secret", () => {
    const configMap = objects.find((object) => object.kind === "ConfigMap" && object.metadata.name === configMapName)
    const secret = objects.find((object) => object.kind === "Secret" && object.metadata.name === secretName)
    for (const name of ["JWT_SECRET", "DATABASE_URL"]) expect(Object.keys(configMap?.data ?? {})).not.toContain(name)
    expect(Object.keys(secret?.stringData ?? {})).toContain("JWT_SECRET")
    for (const [name, value] of Object.entries(secret?.stringData ?? {})) expect(value, name).toContain("REPLACE-ME")
    // Applied unchanged, the placeholder is too short to be accepted as a key: the gateway refuses to start.
    expect(Buffer.byteLength(secret?.stringData?.["JWT_SECRET"] ?? "")).toBeLessThan(32)
    const documented = documentedSettings()
    for (const name of [...Object.keys(configMap?.data ?? {}), ...Object.keys(secret?.stringData ?? {})]) {
      expect(documented, `${name} is in a README configuration table`).toContain(name)
    }
  })

  it("lists every manifest in kustomization.yaml, and only files that exist", () => {
    const kustomization = objects.find((object) => object.kind === "Kustomization")
    expect(kustomization?.resources?.slice().sort()).toEqual(kubernetesFiles().filter((file) => file !== "kustomization.yaml"))
  })

  it("renders a consumer-group worker with an autoscaler and no fixed replica count (the path later services take)", () => {
    const worker: ServiceDefinition = {
      ...deployedServices[0]!,
      name: "example-worker",
      port: null,
      public: false,
      replicas: 2,
      worker: { maxReplicas: 6, targetCpuUtilization: 70 }
    }
    const rendered = renderKubernetes([...deployedServices, worker])
    const objects = Object.values(rendered).flatMap((content) => yamlDocumentsOf(content))
    checkObjects(objects, [...deployedServices, worker])
    expect(serviceObjects(worker).map((object) => object["kind"])).toEqual(["Deployment", "HorizontalPodAutoscaler"])
  })
})

const yamlDocumentsOf = (content: string) =>
  parseAllDocuments(content).map((document) => document.toJS() as KubernetesObject)
