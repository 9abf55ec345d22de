/**
 * The per-workspace state MCP Host shares with the CLI (tool choices, disabled servers, approvals):
 * files keyed by the .code-workspace file or the first folder, with what older versions kept in
 * VS Code's workspace storage moved there once.
 */
import * as vscode from 'vscode';
import { disabledServersFor, toolFilterFor, type DisabledServers, type ToolFilter } from '../core/tools/index.js';
import { APPROVALS_KEY, sharedServerApprovals, type ServerApprovals } from '../core/config/index.js';
import type { Logger } from '../core/ports.js';

/**
 * Tool choices live in a per-workspace file the CLI reads too (core/tools/workspace-state.ts),
 * keyed by the .code-workspace file or the first folder.
 */
export function workspaceToolFilter(): ToolFilter {
  return toolFilterFor(workspaceKey());
}

function workspaceKey(): string {
  const ws =
    vscode.workspace.workspaceFile?.scheme === 'file'
      ? vscode.workspace.workspaceFile.fsPath
      : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return ws ?? '(no folder)';
}

/** Where the editor kept disabled servers before they moved to the file the CLI reads. */
const OLD_DISABLED_KEY = 'mcpHost.disabledServers';

/**
 * The workspace's disabled servers, in the same per-workspace file as the tool choices. Names an
 * older version kept in VS Code's workspace storage move there once; the old entry is cleared only
 * after the file was written, so a failed write loses nothing.
 */
export function workspaceDisabledServers(memento: vscode.Memento, logger: Logger): DisabledServers {
  const disabled = disabledServersFor(workspaceKey());
  const old = memento.get<string[]>(OLD_DISABLED_KEY);
  if (Array.isArray(old)) {
    void disabled
      .adopt(old)
      .then(() => memento.update(OLD_DISABLED_KEY, undefined))
      .then(
        () => old.length && logger.info(`moved ${old.length} disabled server(s) to the workspace file the CLI reads`),
        (e: unknown) =>
          logger.warn(`could not move the disabled servers: ${e instanceof Error ? e.message : String(e)}`),
      );
  }
  return disabled;
}

/**
 * Approvals of the workspace's own servers, in the per-workspace file the CLI reads too
 * (core/config/approvals-file.ts), so approving in one front end approves in the other. Decisions
 * an older version kept in workspaceState move there once (nobody is asked again); the old entry is
 * cleared only after the file was written, so a failed write loses nothing.
 */
export function workspaceApprovals(memento: vscode.Memento, logger: Logger): ServerApprovals {
  const approvals = sharedServerApprovals(workspaceKey());
  const old = memento.get<unknown>(APPROVALS_KEY);
  if (old !== undefined) {
    void approvals
      .adopt(old)
      .then(async (n) => {
        await memento.update(APPROVALS_KEY, undefined);
        if (n) logger.info(`moved ${n} server approval(s) to the workspace file the CLI reads`);
      })
      .catch((e: unknown) =>
        logger.warn(`could not move the server approvals: ${e instanceof Error ? e.message : String(e)}`),
      );
  }
  return approvals;
}
