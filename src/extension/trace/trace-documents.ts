/**
 * The `mcp-host-trace:` documents: one per server and filter (method, direction) in the URI, live
 * while the hub records, refreshed at most a few times a second.
 */
import * as vscode from 'vscode';
import { formatTrace, type TraceDirection, type TraceFilter, type TraceHub } from '../../core/trace/index.js';
import { debounce } from '../config/debounce.js';

export const TRACE_SCHEME = 'mcp-host-trace';

function traceUri(server: string, f: TraceFilter): vscode.Uri {
  const q = new URLSearchParams();
  if (f.method) q.set('method', f.method);
  if (f.direction) q.set('direction', f.direction);
  return vscode.Uri.from({ scheme: TRACE_SCHEME, path: `/${server}.trace`, query: q.toString() });
}

export function parseTraceUri(uri: vscode.Uri): { server: string; filter: TraceFilter } {
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

export interface TraceDocuments {
  /** Opens (or shows again) the trace of `server` under `filter`. */
  show(server: string, filter?: TraceFilter): Promise<void>;
  /** Re-renders the open trace documents (debounced). */
  refresh(): void;
  disposables: vscode.Disposable[];
}

export function traceDocuments(hub: TraceHub): TraceDocuments {
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
  ];
  return { show, refresh: () => refresh(), disposables };
}
