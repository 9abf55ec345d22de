/**
 * The protocol trace in the editor: the `mcpHost.trace.servers` setting and a tree action turn it
 * on per server; `mcp-host-trace:` documents show it (live, filtered by method and direction,
 * responses paired with their requests) and it exports as NDJSON.
 */
import * as vscode from 'vscode';
import { writeFile } from 'node:fs/promises';
import type { McpHost } from '../../core/host.js';
import { formatTrace, toNdjson, type TraceDirection, type TraceFilter, TraceHub } from '../../core/trace/index.js';
import { debounce } from '../config/debounce.js';
import type { CommandTable } from '../command-table.js';
import { readSettings } from '../settings.js';

export const TRACE_SCHEME = 'mcp-host-trace';

function settingServers(): string[] | '*' {
  const list = readSettings().trace.servers;
  return list.includes('*') ? '*' : list;
}

/** The hub main.ts hands the host (`wrapTransport`), configured from the settings. */
export function createTraceHub(): TraceHub {
  return new TraceHub({ enabled: settingServers(), capacity: readSettings().trace.capacity });
}

function traceUri(server: string, f: TraceFilter): vscode.Uri {
  const q = new URLSearchParams();
  if (f.method) q.set('method', f.method);
  if (f.direction) q.set('direction', f.direction);
  return vscode.Uri.from({ scheme: TRACE_SCHEME, path: `/${server}.trace`, query: q.toString() });
}

function parseTraceUri(uri: vscode.Uri): { server: string; filter: TraceFilter } {
  const q = new URLSearchParams(uri.query);
  const dir = q.get('direction');
  return {
    server: decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.trace$/, '')),
    filter: {
      ...(q.get('method') ? { method: q.get('method')! } : {}),
      ...(dir === 'in' || dir === 'out' ? { direction: dir as TraceDirection } : {}),
    },
  };
}

function serverOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri && arg.scheme === TRACE_SCHEME) return parseTraceUri(arg).server;
  const s = (arg as { server?: unknown } | undefined)?.server;
  return typeof s === 'string' ? s : undefined;
}

export type TraceCommandId =
  'mcpHost.toggleTrace' | 'mcpHost.showTrace' | 'mcpHost.filterTrace' | 'mcpHost.clearTrace' | 'mcpHost.exportTrace';

export function registerTrace(
  host: McpHost,
  hub: TraceHub,
): { disposables: vscode.Disposable[]; commands: Pick<CommandTable, TraceCommandId> } {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  // A busy server sends many messages: refresh open trace documents at most a few times a second.
  const refresh = debounce(() => {
    for (const u of vscode.workspace.textDocuments) if (u.uri.scheme === TRACE_SCHEME) changed.fire(u.uri);
  }, 250);
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    provideTextDocumentContent(uri) {
      const { server, filter } = parseTraceUri(uri);
      return formatTrace(server, hub.records(server), filter, {
        dropped: hub.dropped(server),
        enabled: hub.isEnabled(server),
      });
    },
  };
  const pick = async (arg: unknown, title: string): Promise<string | undefined> => {
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
  };
  const show = async (server: string, filter: TraceFilter = {}): Promise<void> => {
    const doc = await vscode.workspace.openTextDocument(traceUri(server, filter));
    await vscode.window.showTextDocument(doc, { preview: false });
  };
  const disposables: vscode.Disposable[] = [
    changed,
    { dispose: () => refresh.dispose() },
    vscode.workspace.registerTextDocumentContentProvider(TRACE_SCHEME, provider),
    hub.onDidRecord(() => refresh()),
    hub.onDidChangeEnabled(() => refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost.trace.servers')) hub.setEnabledServers(settingServers());
    }),
  ];
  const commands: Pick<CommandTable, TraceCommandId> = {
    'mcpHost.toggleTrace': async (arg?: unknown) => {
      const server = await pick(arg, 'Toggle Protocol Trace');
      if (!server) return;
      const on = !hub.isEnabled(server);
      hub.setEnabled(server, on);
      if (on) await show(server);
      else
        void vscode.window.showInformationMessage(
          `Protocol trace of ${server} is off (the ${hub.records(server).length} messages recorded are kept).`,
        );
    },
    'mcpHost.showTrace': async (arg?: unknown) => {
      const server = await pick(arg, 'Show Protocol Trace');
      if (server) await show(server);
    },
    'mcpHost.filterTrace': async (arg?: unknown) => {
      const server = await pick(arg, 'Filter Protocol Trace');
      if (!server) return;
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
      await show(server, { ...(method ? { method } : {}), ...(dir.value ? { direction: dir.value } : {}) });
    },
    'mcpHost.clearTrace': async (arg?: unknown) => {
      const server = await pick(arg, 'Clear Protocol Trace');
      if (!server) return;
      hub.clear(server);
      refresh();
    },
    'mcpHost.exportTrace': async (arg?: unknown) => {
      const server = await pick(arg, 'Export Protocol Trace');
      if (!server) return;
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
    },
  };
  return { disposables, commands };
}
