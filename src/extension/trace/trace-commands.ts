/**
 * The trace's commands. Each picks a server (or takes it from the tree or the trace document it
 * runs in) and acts on it: a table of title and action.
 */
import * as vscode from 'vscode';
import { writeFile } from 'node:fs/promises';
import type { McpHost } from '../../core/host.js';
import { toNdjson, type TraceHub } from '../../core/trace/index.js';
import type { CommandTable } from '../command-table.js';
import { parseTraceUri, TRACE_SCHEME, type TraceDocuments } from './trace-documents.js';

export type TraceCommandId =
  'mcpHost.toggleTrace' | 'mcpHost.showTrace' | 'mcpHost.filterTrace' | 'mcpHost.clearTrace' | 'mcpHost.exportTrace';

type TraceAction = (hub: TraceHub, docs: TraceDocuments, server: string, arg: unknown) => Promise<void>;

const COMMANDS: Record<TraceCommandId, [title: string, act: TraceAction]> = {
  'mcpHost.toggleTrace': ['Toggle Protocol Trace', toggle],
  'mcpHost.showTrace': ['Show Protocol Trace', (_hub, docs, server) => docs.show(server)],
  'mcpHost.filterTrace': ['Filter Protocol Trace', filter],
  'mcpHost.clearTrace': [
    'Clear Protocol Trace',
    async (hub, docs, server) => {
      hub.clear(server);
      docs.refresh();
    },
  ],
  'mcpHost.exportTrace': ['Export Protocol Trace', exportNdjson],
};

export function traceCommands(host: McpHost, hub: TraceHub, docs: TraceDocuments): Pick<CommandTable, TraceCommandId> {
  return Object.fromEntries(
    Object.entries(COMMANDS).map(([id, [title, act]]) => [
      id,
      async (arg?: unknown) => {
        const server = await pick(host, hub, arg, title);
        if (server) await act(hub, docs, server, arg);
      },
    ]),
  ) as Pick<CommandTable, TraceCommandId>;
}

function serverOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri && arg.scheme === TRACE_SCHEME) return parseTraceUri(arg).server;
  const s = (arg as { server?: unknown } | undefined)?.server;
  return typeof s === 'string' ? s : undefined;
}

async function pick(host: McpHost, hub: TraceHub, arg: unknown, title: string): Promise<string | undefined> {
  const given = serverOf(arg);
  if (given) return given;
  const items = host.servers().map((s) => ({
    label: s.name,
    description: hub.isEnabled(s.name) ? `tracing, ${hub.records(s.name).length} messages` : 'not traced',
  }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No MCP server to trace.');
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { title: `MCP Host: ${title}`, placeHolder: 'Server' }))?.label;
}

async function toggle(hub: TraceHub, docs: TraceDocuments, server: string): Promise<void> {
  const on = !hub.isEnabled(server);
  hub.setEnabled(server, on);
  if (on) await docs.show(server);
  else
    void vscode.window.showInformationMessage(
      `Protocol trace of ${server} is off (the ${hub.records(server).length} messages recorded are kept).`,
    );
}

/** Asks for a method and a direction, starting from the filter of the trace document it runs in. */
async function filter(_hub: TraceHub, docs: TraceDocuments, server: string, arg: unknown): Promise<void> {
  const current = arg instanceof vscode.Uri ? parseTraceUri(arg).filter : {};
  const method = await vscode.window.showInputBox({
    title: `Filter the trace of ${server}`,
    prompt: 'Show messages whose method contains (empty: every method)',
    value: current.method ?? '',
  });
  if (method === undefined) return;
  const dir = await vscode.window.showQuickPick(
    [
      { label: 'Both directions', value: undefined },
      { label: '→ Host to server', value: 'out' as const },
      { label: '← Server to host', value: 'in' as const },
    ],
    { title: 'Direction' },
  );
  if (!dir) return;
  await docs.show(server, { ...(method ? { method } : {}), ...(dir.value ? { direction: dir.value } : {}) });
}

async function exportNdjson(hub: TraceHub, _docs: TraceDocuments, server: string): Promise<void> {
  const records = hub.records(server);
  if (records.length === 0) {
    void vscode.window.showInformationMessage(
      `The trace of ${server} is empty${hub.isEnabled(server) ? '' : ': turn tracing on first'}.`,
    );
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: `Export the protocol trace of ${server}`,
    filters: { NDJSON: ['ndjson', 'jsonl'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `${server}.trace.ndjson`) } : {}),
  });
  if (!target) return;
  // Redacted already; 0600 all the same, a trace holds the user's data.
  await writeFile(target.fsPath, toNdjson(records), { mode: 0o600 });
  void vscode.window.showInformationMessage(`Exported ${records.length} messages to ${target.fsPath}.`);
}
