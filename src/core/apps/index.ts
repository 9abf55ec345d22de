/**
 * The public face of core/apps: what the editor (src/extension) and the CLI (src/cli) may use of
 * it. They import this module only (scripts/lib/import-layers.mjs); inside core, files import
 * each other directly.
 */
export { appCallConsent, AppSessionTrust, isDestructive } from './call-consent.js';
export { buildAppCsp } from './csp.js';
export { appDocument } from './document.js';
export { loadAppBridge } from './load-bridge.js';
export { visibleToModel } from './meta.js';
export { type AppResource, loadAppResource } from './resource.js';
export { type AppHostPorts, AppSession } from './session.js';
export { appStyleVariables } from './styles.js';
export type { MessagePipe } from './transport.js';
