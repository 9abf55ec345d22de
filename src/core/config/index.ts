/**
 * The public face of core/config: what the editor (src/extension) and the CLI (src/cli) may use of
 * it. They import this module only (scripts/lib/import-layers.mjs); inside core, files import
 * each other directly.
 */
export { awaitingApproval, heldReason, type HeldReason } from './admit.js';
export { sharedServerApprovals } from './approvals-file.js';
export {
  APPROVALS_KEY,
  approvalHashOf,
  type ApprovalStatus,
  needsApproval,
  type ServerApprovals,
} from './approvals.js';
export { consentSummary } from './consent-summary.js';
export { describeTarget } from './describe.js';
export { addInputDeclarations, type PromptStringInput } from './edit-inputs.js';
export {
  ConfigEditError,
  type ConfigFileFormat,
  removeServerEntry,
  serversKey,
  setServerEntry,
  updateServerEntry,
} from './edit.js';
export { planImport, readImportSource } from './import.js';
export { findEntryOffset, findNearestOffset, formatJsonPath, parseConfigText } from './jsonc.js';
export { configFilesToWatch, type LoadOptions, readConfig, type ReadConfig } from './load.js';
export { managedPolicyFiles } from './policy-scope.js';
export { installedAs } from './registry-installed.js';
export { registrySettings, requireEnabled } from './registry-settings.js';
export { describePlan, type SandboxPlan } from './sandbox-settings.js';
export { type ApprovalPort, type DisabledServersPort, ServerRegistry, type WatchFiles } from './server-registry.js';
export {
  editorReads,
  editorServerIds,
  leftToEditor,
  parseChoice,
  parsePerServer,
  readByEditor,
  whoRuns,
  withoutServers,
  withRunner,
  type EditorReads,
  type PerServerChoices,
  type ServerRunner,
  type SharedChoices,
  type SharedServersChoice,
} from './shared-servers.js';
export { DISCOVERY_SOURCES, type DiscoverySource } from './sources/discovery.js';
export type { InputDeclaration } from './sources/entry.js';
export type {
  ConfigProblem,
  InProcessServerConfig,
  LoadedConfig,
  Policy,
  PolicySwitch,
  Scope,
  ServerDefinition,
  StdioServerConfig,
} from './types.js';
export { readUserSettingsServers, userSettingsFile } from './user-settings.js';
export { inputIdsIn } from './variables.js';
