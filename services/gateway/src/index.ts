export { GatewayConfig } from "./config.ts"
export { Ids } from "./events/Ids.ts"
export { GatewayHttpLive } from "./http/layer.ts"
export { gatewayMigrations, gatewayProjections } from "./readModels.ts"
