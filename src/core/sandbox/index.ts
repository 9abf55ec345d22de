/**
 * The public face of core/sandbox: what the editor (src/extension) and the CLI (src/cli) may use of
 * it. They import this module only (scripts/lib/import-layers.mjs); inside core, files import
 * each other directly.
 */
export { allowChoice } from './allow.js';
export { suggestedSandbox } from './registry.js';
export { type SandboxBlock, sharedSandboxRuntime } from './runtime.js';
export { blockLine } from './spawn.js';
