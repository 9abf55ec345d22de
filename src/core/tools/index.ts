/**
 * The tool choices of a workspace, as every front end (tree, palette, API, CLI, gateway) should
 * open them: `toolFilterFor(folder).filter(tools)` / `.isEnabled(server, tool)`.
 */
import { userConfigDir } from '../user-dir.js';
import { DisabledServers } from './disabled-servers.js';
import { ToolFilter } from './tool-filter.js';
import { WorkspaceStateStore } from './workspace-state.js';

export { ToolFilter, DISABLED_TOOLS_KEY, type ToolFilterChange } from './tool-filter.js';
export { WorkspaceStateStore, workspaceStateFile } from './workspace-state.js';
export { DisabledServers, DISABLED_SERVERS_KEY } from './disabled-servers.js';

/** The filter of `workspace` (a folder or .code-workspace path), stored under the user's config dir. */
export function toolFilterFor(workspace: string, env: Record<string, string | undefined> = process.env): ToolFilter {
  return new ToolFilter(new WorkspaceStateStore(userConfigDir(env), workspace));
}

/** The servers switched off for `workspace`, in the same file as its tool choices. */
export function disabledServersFor(
  workspace: string,
  env: Record<string, string | undefined> = process.env,
): DisabledServers {
  return new DisabledServers(new WorkspaceStateStore(userConfigDir(env), workspace));
}
