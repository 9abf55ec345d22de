/**
 * Show Server Details (a markdown document, fresh with each ask) and Ping Server: what the server
 * said at initialize, how fast it answers, its trace and its extra roots.
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core/host.js';
import { formatServerDetails } from '../../core/inspector/index.js';
import type { CommandTable } from '../command-table.js';
import type { InspectorDeps, PickServer } from './inspector-deps.js';
import { DETAILS_SCHEME } from './schemes.js';
import { serverOf } from './server-pick.js';

/** Round trip of a `ping` request in ms, or why it failed. */
async function ping(host: McpHost, server: string): Promise<{ ms: number } | { error: string }> {
  const t0 = performance.now();
  try {
    await host.request(server, 'ping', undefined, { timeoutMs: 10_000 });
    return { ms: performance.now() - t0 };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export function serverDetails(
  deps: InspectorDeps,
  pick: PickServer,
): {
  provider: vscode.TextDocumentContentProvider;
  changed: vscode.EventEmitter<vscode.Uri>;
  commands: Pick<CommandTable, 'mcpHost.showServerDetails' | 'mcpHost.pingServer'>;
} {
  const { host } = deps;
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri) {
      const name = serverOf(uri)!;
      const snapshot = host.server(name);
      if (!snapshot) return `# ${name}\n\nThis server is no longer configured.\n`;
      return formatServerDetails({
        snapshot,
        initialize: snapshot.state.kind === 'connected' ? deps.hub.initializeResult(name)?.result : undefined,
        ping: snapshot.state.kind === 'connected' ? await ping(host, name) : undefined,
        traced: deps.hub.isEnabled(name),
        extraRoots: deps.roots.extraRoots(name).map((r) => r.uri),
        lastDevChange: deps.lastDevChange(name),
      });
    },
  };
  const commands = {
    'mcpHost.showServerDetails': async (arg?: unknown) => {
      const name = await pick(arg, 'Show Server Details');
      if (!name) return;
      const uri = vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${name}.md` });
      // Asking again shows fresh details (and a fresh ping) in an already open document.
      changed.fire(uri);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
    },
    'mcpHost.pingServer': async (arg?: unknown) => {
      const name = await pick(arg, 'Ping Server', true);
      if (!name) return;
      const r = await ping(host, name);
      if ('ms' in r) void vscode.window.showInformationMessage(`${name} answered ping in ${r.ms.toFixed(1)} ms.`);
      else void vscode.window.showErrorMessage(`Ping ${name}: ${r.error}`);
    },
  };
  return { provider, changed, commands };
}
