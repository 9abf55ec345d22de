/**
 * The public face of core/registry: what the editor (src/extension) and the CLI (src/cli) may use of
 * it. They import this module only (scripts/lib/import-layers.mjs); inside core, files import
 * each other directly.
 */
export { RegistryClient, RegistryError } from './client.js';
export {
  buildEntry,
  type BuiltEntry,
  inputIdsIn,
  type InstallChoice,
  installChoices,
  type InstallVariable,
  planInstall,
  suggestedName,
} from './install.js';
export type { RegistryServer } from './schema.js';
