export { GatewayConfig } from "./config.ts"
export { GatewayHttpLive } from "./http/layer.ts"
export { gatewayMigrations, gatewayProjections } from "./readModels.ts"
export { HttpServerLive } from "./server.ts"
