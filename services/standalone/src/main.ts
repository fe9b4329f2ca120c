import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { StandaloneLive } from "./layers.ts"

Layer.launch(StandaloneLive).pipe(NodeRuntime.runMain)
