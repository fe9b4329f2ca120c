// The HTTP upload path alone, without ingestion: POST of a multipart `file` part through the gateway's own pieces
// (the contract's `UploadPayload` on a node HttpApi server, `storeFilePart` with its size limit, the local blob
// store's put with sha256, fsync and rename), timed from the request's start to the response, i.e. until the blob
// is stored. Each round also checks the stored size and hash.
//
// Knobs: BENCH_UPLOAD_MB (100), BENCH_ROUNDS (7).
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { HttpRouter, HttpServer } from "effect/http"
import { NodeHttpServer } from "@effect/platform-node"
import { BlobKey, BlobStore, layerLocal } from "@synth/blobstore"
import { UploadPayload } from "@synth/contracts"
import { Effect, Layer, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import { createWriteStream, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
// The gateway exports no upload internals; this bench drives the real function rather than a copy of it.
import { storeFilePart } from "@synth/gateway"
import { streamUpload } from "../support/upload.ts"

const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 100)
const rounds = Number(process.env.BENCH_ROUNDS ?? 7)

const Stored = Schema.Struct({ size: Schema.Number, sha256: Schema.String })
const BenchApi = HttpApi.make("uploadPathBench").add(
  HttpApiGroup.make("datasets").add(HttpApiEndpoint.post("upload", "/datasets/upload", { payload: UploadPayload, success: Stored }))
)

const workDir = await mkdtemp(join(tmpdir(), "synth-bench-upload-path-"))
const csvPath = join(workDir, "upload.csv")
{
  const out = createWriteStream(csvPath)
  const line = (row: number) => `${row},${(row * 7919) % 10_000},${(row % 997) / 7},2023-04-05,"alpha, beta",true,said "x"\n`
  let written = 0
  for (let row = 0; written < megabytes * 1e6; row++) {
    const text = line(row)
    written += text.length
    if (!out.write(text)) await new Promise<void>((drain) => out.once("drain", () => drain()))
  }
  await new Promise<void>((finish) => out.end(() => finish()))
}
const bytes = readFileSync(csvPath)
const expectedSha = createHash("sha256").update(bytes).digest("hex")

let counter = 0
const UploadLive = HttpApiBuilder.group(BenchApi, "datasets", (handlers) =>
  Effect.map(BlobStore, (blobs) =>
    handlers.handle("upload", ({ payload }) =>
      storeFilePart(blobs, BlobKey.make("datasets", `d${++counter}`, "original"), payload, {
        maxBytes: 4 * megabytes * 1e6,
        tooLarge: () => "too large",
        unreadable: () => "unreadable"
      }).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.die(new Error("no file part")), onSome: Effect.succeed })),
        Effect.map(({ size, sha256 }) => ({ size, sha256 })),
        Effect.orDie
      )
    )
  )
)

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const program = Effect.gen(function* () {
  const address = (yield* HttpServer.HttpServer).address as unknown as AddressInfo
  const baseUrl = `http://127.0.0.1:${address.port}`
  const seconds: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const upload = yield* Effect.promise(() => streamUpload(baseUrl, "bench", csvPath, "upload.csv"))
    const stored = JSON.parse(upload.text) as { size: number; sha256: string }
    if (upload.status !== 200 || stored.size !== bytes.length || stored.sha256 !== expectedSha) {
      return yield* Effect.die(new Error(`round ${round}: ${upload.status} ${upload.text.slice(0, 300)}`))
    }
    seconds.push(upload.milliseconds / 1000)
    console.error(`round ${round + 1}/${rounds}: ${(bytes.length / 1e6 / (upload.milliseconds / 1000)).toFixed(1)} MB/s`)
  }
  const result = {
    bench: "upload-path",
    megabytes: bytes.length / 1e6,
    rounds,
    secondsMedian: median(seconds),
    mbPerSecond: bytes.length / 1e6 / median(seconds),
    msPerMb: (median(seconds) * 1000) / (bytes.length / 1e6),
    seconds
  }
  console.log(JSON.stringify(result))
})

const ServerLive = HttpRouter.serve(HttpApiBuilder.layer(BenchApi).pipe(Layer.provide(UploadLive))).pipe(
  Layer.provide(layerLocal({ root: join(workDir, "blobs") })),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0 }))
)

try {
  await Effect.runPromise(program.pipe(Effect.provide(ServerLive)))
} finally {
  await rm(workDir, { recursive: true, force: true })
}
