// Put and get throughput of the S3 blob store on MinIO, streaming a blob of each size through the adapter as an
// upload would (64 KiB chunks) and reading it back. MinIO is the one S3_ENDPOINT names, else one started here.
// `peakRssMiB` is the process's resident memory at its highest during the put: a put holds about one part.
//
// Knobs: BENCH_S3_SIZES_MB ("50,200"), BENCH_ROUNDS (2; the median is reported).
import { BlobKey, BlobStore, makeS3, s3Config } from "@synth/blobstore"
import { ConfigProvider, Effect, Stream } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
// eslint-disable-next-line @nx/enforce-module-boundaries -- deploy/local is test tooling, not a library
import { start } from "../../deploy/local/minio.ts"
import { repoRoot } from "../support/server.ts"

const sizesMB = (process.env.BENCH_S3_SIZES_MB ?? "50,200").split(",").map(Number)
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)

const chunkBytes = 64 * 1024
const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const mbPerSecond = (bytes: number, ms: number) => +((bytes / 1e6) / (ms / 1000)).toFixed(1)

// Random, so nothing on the way can compress it; cut from one buffer, so making the stream costs next to nothing.
const source = randomBytes(16 * 1024 * 1024)
const body = (size: number) =>
  Stream.range(0, Math.ceil(size / chunkBytes) - 1).pipe(
    Stream.map((index) => {
      const start = (index * chunkBytes) % source.length
      return source.subarray(start, start + Math.min(chunkBytes, size - index * chunkBytes))
    })
  )

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = performance.now()
    const result = yield* effect
    return { result, ms: performance.now() - started }
  })

/** Samples resident memory while `effect` runs and returns its peak in MiB. */
const peakRss = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    let peak = process.memoryUsage.rss()
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20)
    const result = yield* effect.pipe(Effect.ensuring(Effect.sync(() => clearInterval(sampler))))
    return { result, peakRssMiB: Math.round(peak / 2 ** 20) }
  })

const measure = (sizeMB: number) =>
  Effect.gen(function*() {
    const store = yield* BlobStore
    const size = sizeMB * 1e6
    const puts: Array<number> = []
    const gets: Array<number> = []
    const peaks: Array<number> = []
    for (let round = 0; round < rounds; round++) {
      const key = BlobKey.make("bench", randomUUID(), "blob")
      const put = yield* peakRss(timed(store.put(key, body(size))))
      const get = yield* timed(Stream.runFold(store.get(key), () => 0, (total, bytes) => total + bytes.length))
      if (get.result !== size) return yield* Effect.die(new Error(`read ${get.result} bytes, wrote ${size}`))
      puts.push(put.result.ms)
      gets.push(get.ms)
      peaks.push(put.peakRssMiB)
      yield* store.remove(key)
    }
    console.log(JSON.stringify({
      bench: "blobstore-s3",
      sizeMB,
      rounds,
      putMBps: mbPerSecond(size, median(puts)),
      getMBps: mbPerSecond(size, median(gets)),
      peakRssMiB: Math.max(...peaks)
    }))
  })

const main = async () => {
  const server = process.env.S3_ENDPOINT ? undefined : await start({
    cacheDir: join(repoRoot, ".cache", "infra"),
    runDir: await mkdtemp(join(tmpdir(), "bench-minio-")),
    log: (line) => console.error(line)
  })
  const env = server?.env ?? process.env
  const config = ConfigProvider.fromEnv({ env: Object.fromEntries(Object.entries(env).flatMap(([name, value]) => value === undefined ? [] : [[name, value]])) })
  try {
    const program = Effect.gen(function*() {
      const store = yield* makeS3(yield* Effect.provideService(s3Config, ConfigProvider.ConfigProvider, config))
      console.error(`baseline rss ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MiB`)
      for (const sizeMB of sizesMB) yield* measure(sizeMB).pipe(Effect.provideService(BlobStore, store))
    })
    await Effect.runPromise(program)
  } finally {
    await server?.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
