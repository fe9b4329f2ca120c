// deploy/compose.yaml without a Docker engine: its shape against the Compose Specification's (subset) schema, then
// what the schema cannot say: references resolve, every container's readiness is known, ports do not collide, and
// our services get exactly the documented settings, secrets never as literals.
import { describe, expect, it } from "@effect/vitest"
import { Ajv } from "ajv"
import { settingsOf } from "../manifests.ts"
import { compiledEntryOf, services as deployedServices } from "../services.ts"
import { settings } from "../settings.ts"
import { composeSchema } from "./composeSchema.ts"
import { documentedSettings, entryFilesOf, exists, yamlDocuments } from "./files.ts"

interface ComposeService {
  readonly image?: string
  readonly build?: { readonly context: string; readonly dockerfile?: string }
  readonly command?: string | ReadonlyArray<string>
  readonly environment?: Readonly<Record<string, string>>
  readonly ports?: ReadonlyArray<string>
  readonly volumes?: ReadonlyArray<string>
  readonly deploy?: { readonly replicas?: number }
  readonly healthcheck?: { readonly disable?: boolean; readonly test?: unknown }
  readonly depends_on?: Readonly<Record<string, { readonly condition: string }>>
}

interface ComposeFile {
  readonly services: Readonly<Record<string, ComposeService>>
  readonly volumes?: Readonly<Record<string, unknown>>
}

const documents = yamlDocuments("deploy/compose.yaml")
const compose = documents[0] as unknown as ComposeFile
const entries = Object.entries(compose.services)

/** `127.0.0.1:8000-8001:8000` → the host ports 8000 and 8001. */
const hostPorts = (mapping: string): ReadonlyArray<number> => {
  const parts = mapping.split(":")
  const published = parts.length === 3 ? parts[1]! : parts.length === 2 ? parts[0]! : ""
  const [from, to = from] = published.split("-").map(Number)
  return from === undefined || to === undefined || Number.isNaN(from) ? [] : Array.from({ length: to - from + 1 }, (_, index) => from + index)
}

describe("deploy/compose.yaml", () => {
  it("is one YAML document that the Compose Specification (subset) accepts", () => {
    expect(documents).toHaveLength(1)
    const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(composeSchema)
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true)
  })

  it("runs Kafka (KRaft), PostgreSQL, MinIO and every service of deploy/services.ts", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ["kafka", "postgres", "minio", ...deployedServices.map((service) => service.name)].sort()
    )
    expect(compose.services["kafka"]?.image).toMatch(/^apache\/kafka:/)
    expect(compose.services["kafka"]?.environment?.["KAFKA_PROCESS_ROLES"]).toBe("broker,controller")
    for (const service of deployedServices) {
      expect(compose.services[service.name]?.deploy?.replicas).toBe(service.replicas)
    }
    expect(compose.services["gateway"]?.deploy?.replicas).toBe(2)
  })

  it("pins every image by tag, and builds ours from a Dockerfile that exists", () => {
    for (const [name, service] of entries) {
      expect(service.image, name).toMatch(/^[a-z0-9./_-]+:[A-Za-z0-9._-]+$/)
      expect(service.image, name).not.toMatch(/:latest$/)
      if (service.build !== undefined) expect(exists(`deploy/${service.build.context}/${service.build.dockerfile ?? "Dockerfile"}`)).toBe(true)
    }
  })

  it("starts each service only once what it depends on is ready, and knows when each is healthy", () => {
    for (const [name, service] of entries) {
      const checked = service.healthcheck !== undefined && service.healthcheck.disable !== true
      const waits = Object.keys(service.depends_on ?? {}).length > 0
      expect(checked || waits, `${name}: a healthcheck or depends_on conditions`).toBe(true)
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency]
        expect(target, `${name} depends on an undefined service ${dependency}`).toBeDefined()
        if (condition === "service_healthy") {
          expect(target?.healthcheck?.test, `${name} waits for ${dependency} to be healthy: it needs a healthcheck`).toBeDefined()
        }
      }
    }
    for (const service of deployedServices) {
      const dependsOn = compose.services[service.name]?.depends_on ?? {}
      for (const infrastructure of ["kafka", "postgres", "minio"]) {
        expect(dependsOn[infrastructure]?.condition, `${service.name} → ${infrastructure}`).toBe("service_healthy")
      }
    }
  })

  it("mounts only declared named volumes, and every declared one is used", () => {
    const declared = Object.keys(compose.volumes ?? {})
    const used = entries.flatMap(([, service]) => service.volumes ?? []).map((volume) => volume.split(":")[0]!)
    const named = used.filter((source) => !source.startsWith(".") && !source.startsWith("/"))
    for (const volume of named) expect(declared, `volume ${volume}`).toContain(volume)
    expect([...new Set(named)].sort()).toEqual([...declared].sort())
  })

  it("publishes host ports on loopback only, none twice, one per replica", () => {
    const seen = new Map<number, string>()
    for (const [name, service] of entries) {
      for (const mapping of service.ports ?? []) {
        expect(mapping, name).toMatch(/^127\.0\.0\.1:/)
        for (const port of hostPorts(mapping)) {
          expect(seen.get(port), `host port ${port} of ${name}`).toBeUndefined()
          seen.set(port, name)
        }
      }
    }
    for (const service of deployedServices.filter((candidate) => candidate.public && candidate.port !== null)) {
      const published = (compose.services[service.name]?.ports ?? []).flatMap(hostPorts)
      expect(published, service.name).toHaveLength(service.replicas)
    }
  })

  it("gives our services the documented settings, PORT as in deploy/services.ts, secrets only from the environment", () => {
    const documented = documentedSettings()
    for (const service of deployedServices) {
      const environment = compose.services[service.name]?.environment ?? {}
      const expected = [...(service.port === null ? [] : ["PORT"]), ...settingsOf(service).map((setting) => setting.name)]
      expect(Object.keys(environment).sort()).toEqual(expected.sort())
      for (const name of Object.keys(environment)) expect(documented, `${name} is in a README configuration table`).toContain(name)
      if (service.port !== null) expect(environment["PORT"]).toBe(String(service.port))
      for (const setting of settings.filter((candidate) => candidate.secret && candidate.name in environment)) {
        expect(environment[setting.name], `${setting.name} is interpolated, never a literal`).toMatch(/\$\{[A-Z_]+(:?[-?][^}]*)?\}/)
      }
    }
    // Replicas verify each other's tokens: compose refuses to start without a shared JWT_SECRET.
    expect(compose.services["gateway"]?.environment?.["JWT_SECRET"]).toMatch(/^\$\{JWT_SECRET:\?/)
  })

  it("runs entry files that exist", () => {
    for (const [name, service] of entries) {
      const command = typeof service.command === "string" ? service.command.split(" ") : (service.command ?? [])
      for (const entry of entryFilesOf(command)) expect(exists(entry), `${name}: ${entry}`).toBe(true)
    }
  })

  it("runs every service compiled, as the image builds it", () => {
    for (const service of deployedServices) {
      expect(compose.services[service.name]?.command, service.name).toEqual(["node", compiledEntryOf(service)])
    }
  })
})
