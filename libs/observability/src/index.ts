export { jsonLogger, layerLogging, LoggingConfig } from "./logging.ts"
export { processMetricsText, prometheusContentType, renderPrometheus, scrape } from "./prometheus.ts"
export { teardown } from "./teardown.ts"
