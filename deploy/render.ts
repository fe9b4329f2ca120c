// Writes deploy/compose.yaml and deploy/k8s/*.yaml from services.ts and settings.ts: `npm run render`.
import { mkdir, readdir, rm, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { renderCompose, renderKubernetes } from "./manifests.ts"
import { services } from "./services.ts"

const deployDir = dirname(fileURLToPath(import.meta.url))
const kubernetesDir = join(deployDir, "k8s")

await writeFile(join(deployDir, "compose.yaml"), renderCompose(services))
await mkdir(kubernetesDir, { recursive: true })
const files = renderKubernetes(services)
// A service taken out of the list leaves no manifest behind.
for (const stale of (await readdir(kubernetesDir)).filter((name) => name.endsWith(".yaml") && !(name in files))) {
  await rm(join(kubernetesDir, stale))
}
for (const [name, content] of Object.entries(files)) await writeFile(join(kubernetesDir, name), content)
console.log(`wrote deploy/compose.yaml and deploy/k8s/{${Object.keys(files).join(",")}}`)
