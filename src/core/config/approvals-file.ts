/**
 * The approval store both front ends open: the per-workspace state file under the user's own
 * folder (core/tools/workspace-state.ts: keyed by the workspace path, 0600, replaced atomically),
 * beside the tool choices and the disabled list. The editor's workspaceState is a database the CLI
 * cannot read, so decisions kept there would make `mcp-host` either ask again or not ask at all.
 */
import { userConfigDir } from '../user-dir.js';
import { WorkspaceStateStore } from '../tools/workspace-state.js';
import { ServerApprovals } from './approvals.js';

/** The key of the decisions in the workspace-state file. */
export const SHARED_APPROVALS_KEY = 'serverApprovals';

/** The decisions for `workspace` (a folder or .code-workspace path), as the editor and the CLI both open them. */
export function sharedServerApprovals(
  workspace: string,
  env: Record<string, string | undefined> = process.env,
  now?: () => number,
): ServerApprovals {
  return new ServerApprovals(new WorkspaceStateStore(userConfigDir(env), workspace), SHARED_APPROVALS_KEY, now);
}
