// Compiles every service of deploy/services.ts to JavaScript (`npm run build`; `npm run build -- gateway ingest` for
// some): one folder per service under dist/services/ with its main.mjs and the entry of every worker thread it
// starts, bundled by esbuild with what they import and split into chunks. Node runs the output without its type
// stripper; a barrel's modules that a service does not use are left out (every workspace package declares
// `"sideEffects": false`), and a module reached only through `import()` stays on disk until it is needed.
import { build, type BuildResult, type Plugin } from "esbuild"
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { dirname, extname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { compiledDir, type ServiceDefinition, services } from "./services.ts"

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..")

/**
 * Packages that read files of their own at run time (WebAssembly, native addons, data next to their modules) or must
 * be the one instance such a package registers with (tfjs and its WebAssembly backend): they load from node_modules.
 */
export const externalPackages = [
  "@electric-sql/pglite",
  "@electric-sql/pglite/*",
  "@electric-sql/pglite-socket",
  "@platformatic/wasm-utils",
  "@tensorflow/*",
  "onnxruntime-node",
  "onnxruntime-common"
]

/**
 * A worker thread runs a file beside the module that starts it: `new Worker(new URL("./x.ts", import.meta.url))`.
 * In the compiled service every such file is an entry of its own in the service's folder (flat, chunks included, so
 * the relative name holds from any chunk), and the literal names that entry.
 */
const threadEntryLiteral = /new URL\("\.\/([\w.-]+)\.(ts|mjs)", import\.meta\.url\)/g

interface ThreadEntry {
  readonly name: string
  readonly source: string
}

const sourceFolders = ["contracts/src", "libs", "services"]

/** This repository's modules that start threads, found by reading the sources: the plugin is called for these only. */
const threadStarters = async (): Promise<ReadonlyArray<string>> => {
  const found: Array<string> = []
  for (const folder of sourceFolders) {
    for (const file of await readdir(join(repoRoot, folder), { recursive: true })) {
      if (!/\.(ts|mjs)$/.test(file) || file.includes("node_modules") || /\.spec\.ts$/.test(file)) continue
      const path = join(repoRoot, folder, file)
      if (new RegExp(threadEntryLiteral.source).test(await readFile(path, "utf8"))) found.push(path)
    }
  }
  return found
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** Rewrites the thread-entry literals of `starters` to their compiled names and reports each entry on `found`. */
const threadEntries = (starters: ReadonlyArray<string>, found: (entry: ThreadEntry) => void): Plugin => ({
  name: "thread-entries",
  setup(builder) {
    const filter = new RegExp(`^(${starters.map(escapeRegExp).join("|")})$`)
    builder.onLoad({ filter }, async ({ path }) => {
      const contents = (await readFile(path, "utf8")).replace(threadEntryLiteral, (_literal, name: string, extension: string) => {
        found({ name, source: join(dirname(path), `${name}.${extension}`) })
        return `new URL("./${name}.mjs", import.meta.url)`
      })
      return { contents, loader: extname(path) === ".ts" ? "ts" : "js" }
    })
  }
})

// CommonJS dependencies inside an ES module bundle still call `require` for Node's built-ins.
const banner = [
  `import { createRequire as __synthCreateRequire } from "node:module";`,
  `const require = __synthCreateRequire(import.meta.url);`
].join("\n")

const bundle = (service: ServiceDefinition, entry: ThreadEntry, plugin: Plugin): Promise<BuildResult<{ write: false }>> =>
  build({
    absWorkingDir: repoRoot,
    entryPoints: [{ in: relative(repoRoot, entry.source), out: entry.name }],
    outdir: join(repoRoot, compiledDir, service.name),
    outExtension: { ".js": ".mjs" },
    chunkNames: "[name]-[hash]",
    write: false,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node26",
    external: externalPackages,
    banner: { js: banner },
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    logLevel: "warning",
    plugins: [plugin]
  })

/**
 * Bundles the service's main.mjs, then every thread entry it names, then those they name. Each entry is a build of
 * its own: a thread is an isolate of its own that loads its own copy of the code anyway, and chunks shared with
 * main.mjs would make main.mjs load, at start, every module that both reach through a barrel (the job libraries).
 * Returns the thread entries' names.
 */
const buildService = async (service: ServiceDefinition, starters: ReadonlyArray<string>) => {
  const outputs = new Map<string, Uint8Array>()
  const entries = new Map<string, string>([["main", join(repoRoot, service.entry)]])
  const queue: Array<ThreadEntry> = [{ name: "main", source: join(repoRoot, service.entry) }]
  for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
    const result = await bundle(service, entry, threadEntries(starters, (found) => {
      const known = entries.get(found.name)
      if (known === undefined) {
        entries.set(found.name, found.source)
        queue.push(found)
      } else if (known !== found.source) {
        throw new Error(`${service.name}: two entries compile to ${found.name}.mjs: ${relative(repoRoot, known)} and ${relative(repoRoot, found.source)}`)
      }
    }))
    for (const file of result.outputFiles) {
      const written = outputs.get(file.path)
      if (written !== undefined && Buffer.compare(written, file.contents) !== 0 && !file.path.endsWith(".map")) {
        throw new Error(`${service.name}: two builds wrote different ${relative(repoRoot, file.path)}`)
      }
      outputs.set(file.path, file.contents)
    }
  }
  const folder = join(repoRoot, compiledDir, service.name)
  await rm(folder, { recursive: true, force: true })
  await mkdir(folder, { recursive: true })
  await Promise.all([...outputs].map(([path, contents]) => writeFile(path, contents)))
  return [...entries.keys()].filter((name) => name !== "main")
}

/** Compiles the given services (every one by default), all at once; one line each on `log`. */
export const buildServices = async (
  chosen: ReadonlyArray<ServiceDefinition> = services,
  log: (line: string) => void = () => undefined
) => {
  const starters = await threadStarters()
  await Promise.all(
    chosen.map(async (service) => {
      const started = performance.now()
      const threads = await buildService(service, starters)
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      log(`${service.name}: ${compiledDir}/${service.name}/main.mjs${threads.map((name) => `, ${name}.mjs`).join("")} (${seconds} s)`)
    })
  )
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const wanted = process.argv.slice(2)
  const unknown = wanted.filter((name) => !services.some((service) => service.name === name))
  if (unknown.length > 0) {
    console.error(`deploy/build.ts: no service ${unknown.join(", ")} in deploy/services.ts`)
    process.exit(2)
  }
  await buildServices(wanted.length === 0 ? services : services.filter((service) => wanted.includes(service.name)), console.log)
}
