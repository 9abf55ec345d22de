/**
 * What the MCP Inspector has, in the editor: server details (with a ping), Send Request… for any
 * method, extra roots per server, the call history as JSON, a call as an `mcp-host call` line and
 * a server as a `claude mcp add` line or `.mcp.json` JSON. This file puts the pieces into one
 * command table; each lives in the file named for it.
 */
import * as vscode from 'vscode';
import { historyJson } from '../../core/inspector/index.js';
import type { CommandTable } from '../command-table.js';
import { copyCommands } from './copy-lines.js';
import type { InspectorDeps, PickServer } from './inspector-deps.js';
import { DETAILS_SCHEME, RESPONSE_SCHEME } from './schemes.js';
import { responseDocuments, sendRequest } from './send-request.js';
import { serverDetails } from './server-details.js';
import { pickServer } from './server-pick.js';

export { DETAILS_SCHEME, RESPONSE_SCHEME } from './schemes.js';
export type { InspectorDeps } from './inspector-deps.js';
export { writtenEntry } from './copy-lines.js';

export type InspectorCommandId =
  | 'mcpHost.showServerDetails'
  | 'mcpHost.pingServer'
  | 'mcpHost.sendRequest'
  | 'mcpHost.addRoot'
  | 'mcpHost.removeRoot'
  | 'mcpHost.exportCallHistory'
  | 'mcpHost.copyCallAsCommand'
  | 'mcpHost.copyServerAsClaudeAdd'
  | 'mcpHost.copyServerAsMcpJson';

/** The documents' providers, by scheme: src/extension/lazy/workbench.ts registers them before this bundle loads. */
export type InspectorProviders = Record<
  typeof DETAILS_SCHEME | typeof RESPONSE_SCHEME,
  vscode.TextDocumentContentProvider
>;

export function registerInspector(deps: InspectorDeps): {
  disposables: vscode.Disposable[];
  commands: Pick<CommandTable, InspectorCommandId>;
  providers: InspectorProviders;
} {
  const pick: PickServer = (arg, title, connectedOnly) => pickServer(deps.host, arg, title, connectedOnly);
  const details = serverDetails(deps, pick);
  const responses = responseDocuments();
  const providers: InspectorProviders = {
    [DETAILS_SCHEME]: details.provider,
    [RESPONSE_SCHEME]: responses.provider,
  };
  const disposables: vscode.Disposable[] = [details.changed, responses.disposable];
  const commands: Pick<CommandTable, InspectorCommandId> = {
    ...details.commands,
    'mcpHost.sendRequest': (arg?: unknown) => sendRequest(deps, pick, arg),
    'mcpHost.addRoot': (arg?: unknown) => addRoot(deps, pick, arg),
    'mcpHost.removeRoot': (arg?: unknown) => removeRoot(deps, pick, arg),
    'mcpHost.exportCallHistory': () => exportCallHistory(deps),
    ...copyCommands(deps, pick),
  };
  return { disposables, commands, providers };
}

async function addRoot(deps: InspectorDeps, pick: PickServer, arg: unknown): Promise<void> {
  const name = await pick(arg, 'Add Root');
  if (!name) return;
  const folders = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: true,
    title: `Roots to offer ${name} (besides the workspace folders)`,
  });
  for (const f of folders ?? []) await deps.roots.add(name, f);
  if (folders?.length)
    void vscode.window.showInformationMessage(
      `${name} now has ${deps.roots.roots(name).length} roots; servers were sent roots/list_changed.`,
    );
}

async function removeRoot(deps: InspectorDeps, pick: PickServer, arg: unknown): Promise<void> {
  const name = await pick(arg, 'Remove Root');
  if (!name) return;
  const extra = deps.roots.extraRoots(name);
  if (extra.length === 0) {
    void vscode.window.showInformationMessage(`${name} has no roots besides the workspace folders.`);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    extra.map((r) => ({ label: r.name ?? r.uri, description: r.uri })),
    { title: `Remove roots of ${name}`, canPickMany: true },
  );
  for (const p of picked ?? []) await deps.roots.remove(name, p.description);
}

async function exportCallHistory(deps: InspectorDeps): Promise<void> {
  const records = deps.history.list();
  if (records.length === 0) {
    void vscode.window.showInformationMessage('No tool calls yet in this window.');
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content: historyJson(records) });
  await vscode.window.showTextDocument(doc, { preview: false });
}
