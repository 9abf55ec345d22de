/**
 * The public face of core/connection: what the editor (src/extension) and the CLI (src/cli) may use of
 * it. They import this module only (scripts/lib/import-layers.mjs); inside core, files import
 * each other directly.
 */
export { errorMessage } from './errors.js';
export { ListCache } from './list-cache.js';
export { findExecutable } from './resolve-command.js';
export { isRemote } from './settings.js';
export { assertNever, type ConnectionState, ConnectionStates, type StateKind } from './state.js';
