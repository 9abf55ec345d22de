/**
 * The public face of core/dev: what the editor (src/extension) and the CLI (src/cli) may use of
 * it. They import this module only (scripts/lib/import-layers.mjs); inside core, files import
 * each other directly.
 */
export { claudeMcpAddLine, mcpHostCallLine, mcpJsonSnippet, type Shell, type WrittenEntry } from './copy-as.js';
export { attachConfiguration, debugConfigFor, DebugSetupError, parseDebuggerListening, SERVER_KEY } from './debug.js';
export { type DiffableLists, diffLists, summarizeChanges } from './list-diff.js';
