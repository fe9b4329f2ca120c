import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { layerFromConfig as BlobStoreLive } from "@synth/blobstore"
import { layerFromConfig as EventLogLive } from "@synth/eventlog"
import { layerLogging, teardown } from "@synth/observability"
import { Layer } from "effect"
import { EvaluationLive } from "./EvaluationLive.ts"

// The evaluation service as its own process (the distributed runtime: N replicas share the evaluation topic's
// partitions as members of one consumer group; each computes EVALUATION_CONCURRENCY evaluations at once). Kafka when
// KAFKA_BROKERS is set, S3 when S3_ENDPOINT is set, else the embedded adapters in DATA_DIR.
EvaluationLive.pipe(Layer.provide(Layer.mergeAll(EventLogLive, BlobStoreLive)), Layer.provide(layerLogging("evaluation")), Layer.launch, NodeRuntime.runMain({ teardown }))
