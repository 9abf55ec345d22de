export { GeminiIdeServer, type GeminiIdeServerOptions } from './server.js';
export { defaultDiscoveryDir, discoveryFileName, type GeminiDiscoveryContent } from './discovery.js';
export { MAX_OPEN_FILES, MAX_SELECTED_TEXT, type GeminiIdeContext } from './context.js';
