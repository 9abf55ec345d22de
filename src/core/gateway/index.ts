export { Gateway, type GatewayOptions } from './gateway.js';
export { GatewayBridge } from './bridge.js';
export { GatewayHttpServer, checkRequest, type GatewayHttpOptions } from './http.js';
export { buildCatalog, resolveResourceUri, unwrapUri, wrapUri, type Catalog, type ExposureFilter } from './catalog.js';
export {
  discoveryDir,
  discoveryFile,
  mcpHostHome,
  readDiscovery,
  removeDiscoverySync,
  writeDiscovery,
  type GatewayDiscovery,
} from './discovery.js';
export { isServeCommand, pointsAtOwnGateway } from '../config/self-loop.js';
export { gatewayFeatures, type GatewayFeatures } from './features.js';
