export { IngestLive, ingestGroup } from "./IngestLive.ts"
export { ingestActor, Ingestion } from "./Ingestion.ts"
