import { NodeRuntime } from "@effect/platform-node"
import { layerLogging, teardown } from "@synth/observability"
import { Layer } from "effect"
import { StandaloneLive } from "./layers.ts"

Layer.launch(StandaloneLive.pipe(Layer.provide(layerLogging("standalone")))).pipe(NodeRuntime.runMain({ teardown }))
