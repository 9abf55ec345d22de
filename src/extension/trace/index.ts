/**
 * The protocol trace in the editor: the `mcpHost.trace.servers` setting and a tree action turn it
 * on per server; `mcp-host-trace:` documents show it (live, filtered by method and direction,
 * responses paired with their requests, trace-documents.ts) and it exports as NDJSON
 * (trace-commands.ts).
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core/host.js';
import { TraceHub } from '../../core/trace/index.js';
import type { CommandTable } from '../command-table.js';
import { readSettings } from '../settings.js';
import { traceCommands, type TraceCommandId } from './trace-commands.js';
import { traceDocuments } from './trace-documents.js';

export { TRACE_SCHEME } from './trace-documents.js';
export type { TraceCommandId } from './trace-commands.js';

function settingServers(): string[] | '*' {
  const list = readSettings().trace.servers;
  return list.includes('*') ? '*' : list;
}

/** The hub main.ts hands the host (`wrapTransport`), configured from the settings. */
export function createTraceHub(): TraceHub {
  return new TraceHub({ enabled: settingServers(), capacity: readSettings().trace.capacity });
}

export function registerTrace(
  host: McpHost,
  hub: TraceHub,
): { disposables: vscode.Disposable[]; commands: Pick<CommandTable, TraceCommandId> } {
  const docs = traceDocuments(hub);
  const disposables: vscode.Disposable[] = [
    ...docs.disposables,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost.trace.servers')) hub.setEnabledServers(settingServers());
    }),
  ];
  return { disposables, commands: traceCommands(host, hub, docs) };
}
