// The deploy files are rendered from deploy/services.ts and deploy/settings.ts; committed and rendered must agree.
import { describe, expect, it } from "@effect/vitest"
import { renderCompose, renderKubernetes } from "../manifests.ts"
import { services } from "../services.ts"
import { exists, kubernetesFiles, read } from "./files.ts"

const rerender = "out of date: run `npm run render` and commit the result"

describe("rendered deploy files", () => {
  it("deploy/compose.yaml is what deploy/render.ts renders", () => {
    expect(read("deploy/compose.yaml"), rerender).toBe(renderCompose(services))
  })

  it("deploy/k8s holds exactly the rendered manifests", () => {
    const rendered = renderKubernetes(services)
    expect(kubernetesFiles(), rerender).toEqual(Object.keys(rendered).sort())
    for (const [name, content] of Object.entries(rendered)) expect(read(`deploy/k8s/${name}`), `${name} ${rerender}`).toBe(content)
  })

  it("lists services that exist, each once, with its entry file", () => {
    const names = services.map((service) => service.name)
    expect(new Set(names).size).toBe(names.length)
    for (const service of services) {
      expect(service.entry).toBe(`services/${service.name}/src/main.ts`)
      expect(exists(service.entry), service.entry).toBe(true)
      expect(service.replicas).toBeGreaterThanOrEqual(1)
      if (service.worker !== null) expect(service.worker.maxReplicas).toBeGreaterThanOrEqual(service.replicas)
    }
  })
})
