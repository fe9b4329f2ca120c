import { describe, expect, it } from "@effect/vitest"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { CancelAnswer, Generator, GeneratorStatus } from "@synth/contracts"
import { Effect, Layer, Schema } from "effect"

// The cancel handler returns the generator's record and leaves the status to the contract: 202 while the record is
// still running, 200 once it stopped. A toy API with the contract's answer and a handler that returns the record
// with the status asked for checks that choice, which no timing in an end-to-end run can force.

const stopped = Schema.decodeUnknownSync(Generator)({
  id: "01a221ca-8d77-73aa-a8ab-b8e320e4a8bc",
  status: "cancelled",
  progress: 5,
  created_at: "2026-11-28T10:54:12.344Z",
  updated_at: "2026-11-28T10:54:13.069Z",
  output_dataset_id: null,
  phase: null,
  generator_type: "tvae",
  dataset_id: "01a221ca-6307-737c-8656-9a8c5b632cfb",
  parameters: { num_rows: 100, epochs: 10000, batch_size: 500, target_epsilon: null },
  seed: 2478272948,
  attempts: 1,
  estimated_time: "about 2 minutes",
  loss_history: [],
  timings: { queued_ms: 232, fit_ms: null, sample_ms: null, total_ms: null },
  model: null,
  columns: null,
  warnings: [],
  privacy: null,
  error: null,
  samples: [],
  constraints: [],
  conditions: null
})

const Api = HttpApi.make("cancel-answer").add(
  HttpApiGroup.make("generators").add(
    HttpApiEndpoint.post("cancel", "/cancel/:status", { params: { status: GeneratorStatus }, success: CancelAnswer })
  )
)

const GeneratorsLive = HttpApiBuilder.group(Api, "generators", (handlers) =>
  handlers.handle("cancel", ({ params }) => Effect.succeed({ ...stopped, status: params.status }))
)

const answer = async (status: GeneratorStatus) => {
  const { dispose, handler } = HttpRouter.toWebHandler(
    HttpApiBuilder.layer(Api).pipe(Layer.provide([GeneratorsLive, HttpServer.layerServices])),
    { disableLogger: true }
  )
  try {
    const response = await handler(new Request(`http://localhost/cancel/${status}`, { method: "POST" }))
    return { status: response.status, body: (await response.json()) as { readonly status: string } }
  } finally {
    await dispose()
  }
}

describe("the cancel answer", () => {
  it("is 202 for a record still running (the stop on its way)", async () => {
    const running = await answer("running")
    expect(running).toMatchObject({ status: 202, body: { status: "running" } })
  })

  it.each(["cancelled", "completed", "failed"] as const)("is 200 for a %s record", async (status) => {
    expect(await answer(status)).toMatchObject({ status: 200, body: { status } })
  })
})
