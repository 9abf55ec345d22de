export { Gateway, type GatewayOptions } from './gateway.js';
export { FAST_PATH_ENV } from './agent.js';
export { AgentStdioTransport } from './agent-stdio.js';
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
export { GatewayViews, agentViewOf, parseToolsChoice, TOOLS_HEADER, type AgentView } from './views.js';
export { parseProfiles, PROFILE_NAME, type GatewayProfile } from './profiles.js';
export type { ToolSearchMode, ToolSearchOptions } from './tool-search.js';
export { DEFAULT_MAX_RESULT_TOKENS, type ResultLimitOptions } from './result-limit.js';
export type { AgentSignIn } from './auth-tool.js';
export { readGatewayViewSettings, VIEW_SETTING_KEYS, type GatewayViewSettings } from './view-settings.js';
export { parseServiceConfig, type ServiceConfig, type ServiceRateLimit, type ServiceRedis } from './service/config.js';
export { GatewayService, type GatewayServiceOptions, type SharedState } from './service/service.js';
export { isLoopbackHost, listenRefusal, type ListenOptions } from './service/listen.js';
export { AuditLog, auditedHost, currentCaller } from './service/audit.js';
export { MemoryRateLimiter, type CallLimiter } from './service/rate-limit.js';
export { parseUpstreamAuth, perUserRefusal, type PerUserAuth } from './service/upstream-auth.js';
export { PerUserPool, perUserFeatures, perUserHost } from './service/upstream-pool.js';
export { SharedWatches, tapListen } from './listen-resources.js';
export { connectShared, SharedRefusal } from './shared/client.js';
export { stderrOf } from './shared/hello.js';
export { DAEMON_ENV, graceMs, SHARE_ENV, shareDir, shareKey } from './shared/key.js';
export { SharedListener } from './shared/listener.js';
