import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { layerLogging, teardown } from "@synth/observability"
import { Layer } from "effect"
import { StandaloneProcessLive } from "./layers.ts"

Layer.launch(StandaloneProcessLive.pipe(Layer.provide(layerLogging("standalone")))).pipe(NodeRuntime.runMain({ teardown }))
