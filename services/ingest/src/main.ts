import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { layerFromConfig as BlobStoreLive } from "@synth/blobstore"
import { layerFromConfig as EventLogLive } from "@synth/eventlog"
import { layerLogging, teardown } from "@synth/observability"
import { Layer } from "effect"
import { IngestLive } from "./IngestLive.ts"

// The ingest service as its own process (the distributed runtime: N replicas share the dataset topic's partitions
// as members of one consumer group). Kafka when KAFKA_BROKERS is set, S3 when S3_ENDPOINT is set, else the
// embedded adapters in DATA_DIR.
IngestLive.pipe(Layer.provide(Layer.mergeAll(EventLogLive, BlobStoreLive)), Layer.provide(layerLogging("ingest")), Layer.launch, NodeRuntime.runMain({ teardown }))
