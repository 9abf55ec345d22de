/**
 * What the MCP Inspector has, in the editor: server details (with a ping), Send Request… for any
 * method, extra roots per server, the call history as JSON, a call as an `mcp-host call` line and
 * a server as a `claude mcp add` line or `.mcp.json` JSON.
 */
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import type { ServerDefinition } from '../../core/config/index.js';
import {
  claudeMcpAddLine,
  mcpHostCallLine,
  mcpJsonSnippet,
  type Shell,
  type WrittenEntry,
} from '../../core/dev/index.js';

/** On Windows a line may be pasted into PowerShell, cmd or a POSIX shell (Git Bash, WSL): each quotes differently. */
async function pickShell(): Promise<Shell | undefined> {
  if (process.platform !== 'win32') return 'posix';
  const items: (vscode.QuickPickItem & { shell: Shell })[] = [
    { label: 'PowerShell', shell: 'powershell' },
    { label: 'Command Prompt (cmd)', shell: 'cmd' },
    { label: 'POSIX shell', description: 'Git Bash, WSL', shell: 'posix' },
  ];
  return (await vscode.window.showQuickPick(items, { title: 'Quote the line for which shell?' }))?.shell;
}
import { type CallHistory, summariseArgs } from '../../core/calls/index.js';
import type { McpHost } from '../../core/host.js';
import {
  formatServerDetails,
  historyJson,
  paramsSchema,
  paramsTemplate,
  requestMethods,
} from '../../core/inspector/index.js';
import { redactArgs } from '../../core/redact.js';
import type { TraceHub } from '../../core/trace/index.js';
import { editJsonDocument } from '../calls/json-editor.js';
import type { CommandTable } from '../command-table.js';
import type { ServerRoots } from './roots.js';
import { readSettings } from '../settings.js';

export { DETAILS_SCHEME, RESPONSE_SCHEME } from './schemes.js';
import { DETAILS_SCHEME, RESPONSE_SCHEME } from './schemes.js';
/** The last responses of Send Request…, by document URI (bounded: they are only for reading). */
const responses = new Map<string, string>();
let responseSeq = 0;

export interface InspectorDeps {
  host: McpHost;
  hub: TraceHub;
  roots: ServerRoots;
  history: CallHistory;
  storageDir: string;
  /** The definition as the config layer has it (before dev-mode rewrites). */
  definition(name: string): ServerDefinition | undefined;
  lastDevChange(name: string): string | undefined;
}

function serverOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri && arg.scheme === DETAILS_SCHEME)
    return decodeURIComponent(arg.path.replace(/^\//, '').replace(/\.md$/, ''));
  const s = (arg as { server?: unknown } | undefined)?.server;
  return typeof s === 'string' ? s : undefined;
}

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

function at(doc: unknown, path: (string | number)[]): unknown {
  let v = doc;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/**
 * The entry as the user wrote it (variables unexpanded), read back from its file or setting: a
 * copied line must carry `${…}` references, never values the host expanded. Servers from other
 * sources fall back to the resolved config with secret arguments hidden.
 */
export async function writtenEntry(def: ServerDefinition): Promise<WrittenEntry> {
  const src = def.source;
  let raw: unknown;
  if (src.file.startsWith('settings:')) {
    const servers = readSettings().servers;
    raw = servers !== null && typeof servers === 'object' ? (servers as Record<string, unknown>)[def.name] : undefined;
  } else {
    try {
      raw = at(parseJsonc(await readFile(src.file, 'utf8')), src.jsonPath);
    } catch {
      raw = undefined;
    }
  }
  if (raw && typeof raw === 'object') return raw as WrittenEntry;
  const c = def.config;
  if (c.type === 'stdio') return { command: c.command, args: redactArgs(c.args), ...(c.env ? { env: c.env } : {}) };
  if (c.type === 'inprocess')
    throw new Error(`${def.name} runs inside another extension; it has no command line to copy`);
  return { type: c.type, url: c.url, ...(c.headers ? { headers: c.headers } : {}) };
}

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
  const { host } = deps;
  const pick = async (arg: unknown, title: string, connectedOnly = false): Promise<string | undefined> => {
    const given = serverOf(arg);
    if (given) return given;
    const names = host
      .servers()
      .filter((s) => !connectedOnly || s.state.kind === 'connected')
      .map((s) => s.name);
    if (names.length === 0) {
      void vscode.window.showInformationMessage(
        connectedOnly ? 'No MCP server is connected.' : 'No MCP server is configured.',
      );
      return undefined;
    }
    return vscode.window.showQuickPick(names, { title: `MCP Host: ${title}`, placeHolder: 'Server' });
  };
  const copy = async (text: string, what: string): Promise<void> => {
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`$(clippy) Copied ${what}`, 5000);
  };
  const detailsChanged = new vscode.EventEmitter<vscode.Uri>();
  const details: vscode.TextDocumentContentProvider = {
    onDidChange: detailsChanged.event,
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
  const providers: InspectorProviders = {
    [DETAILS_SCHEME]: details,
    [RESPONSE_SCHEME]: {
      provideTextDocumentContent: (uri) =>
        responses.get(uri.toString()) ?? '// This response is no longer kept; send the request again.\n',
    },
  };
  const disposables: vscode.Disposable[] = [
    detailsChanged,
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === RESPONSE_SCHEME) responses.delete(d.uri.toString());
    }),
  ];
  const commands: Pick<CommandTable, InspectorCommandId> = {
    'mcpHost.showServerDetails': async (arg?: unknown) => {
      const name = await pick(arg, 'Show Server Details');
      if (!name) return;
      const uri = vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${name}.md` });
      // Asking again shows fresh details (and a fresh ping) in an already open document.
      detailsChanged.fire(uri);
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
    'mcpHost.sendRequest': async (arg?: unknown) => {
      const name = await pick(arg, 'Send Request', true);
      if (!name) return;
      const methods = requestMethods().filter((m) => m !== 'initialize');
      const picked = await vscode.window.showQuickPick(
        [...methods.map((m) => ({ label: m })), { label: '$(edit) Other method…', other: true }],
        { title: `Send a request to ${name}`, placeHolder: 'Method (the spec’s requests; “Other” for anything else)' },
      );
      if (!picked) return;
      const method =
        'other' in picked
          ? await vscode.window.showInputBox({
              title: 'Method',
              prompt: 'Any JSON-RPC method, e.g. my/custom',
              validateInput: (v) => (v.trim() ? undefined : 'A method is required'),
            })
          : picked.label;
      if (!method) return;
      // The spec's params schema, referenced by $schema, gives completion and hovers in the JSON editor.
      const schema = paramsSchema(method);
      let header = '';
      if (schema) {
        const dir = join(deps.storageDir, 'request-schemas');
        await mkdir(dir, { recursive: true });
        const file = join(dir, `${method.replace(/[^\w.-]+/g, '_')}.schema.json`);
        await writeFile(file, JSON.stringify(schema, null, 2));
        header = `  "$schema": ${JSON.stringify(vscode.Uri.file(file).toString())},\n`;
      }
      const body = JSON.stringify(paramsTemplate(method), null, 2).slice(1, -1).trimEnd();
      const text =
        `// params of ${method} for ${name}; "$schema" only gives completion and is not sent\n{\n${header}${body.replace(/^\n/, '')}\n}\n`.replace(
          /,\n\n}/,
          '\n}',
        );
      const value = await editJsonDocument(text, `${method} to ${name}`, (v) =>
        v && typeof v === 'object' && !Array.isArray(v) ? undefined : 'params must be a JSON object',
      );
      if (!value) return;
      const { $schema: _s, ...params } = value.value as Record<string, unknown>;
      const t0 = performance.now();
      const result = await host.request(name, method, Object.keys(params).length ? params : undefined);
      const ms = performance.now() - t0;
      // A read-only document: closing it never asks to save.
      const uri = vscode.Uri.from({
        scheme: RESPONSE_SCHEME,
        path: `/${name}/${method}.jsonc`,
        query: String(++responseSeq),
      });
      responses.set(
        uri.toString(),
        `// ${method} → ${name} answered in ${ms.toFixed(1)} ms\n${JSON.stringify(result, null, 2)}\n`,
      );
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
    },
    'mcpHost.addRoot': async (arg?: unknown) => {
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
    },
    'mcpHost.removeRoot': async (arg?: unknown) => {
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
    },
    'mcpHost.exportCallHistory': async () => {
      const records = deps.history.list();
      if (records.length === 0) {
        void vscode.window.showInformationMessage('No tool calls yet in this window.');
        return;
      }
      const doc = await vscode.workspace.openTextDocument({ language: 'json', content: historyJson(records) });
      await vscode.window.showTextDocument(doc, { preview: false });
    },
    'mcpHost.copyCallAsCommand': async () => {
      const records = deps.history.list();
      if (records.length === 0) {
        void vscode.window.showInformationMessage('No tool calls yet in this window.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        records.map((r) => ({ label: `${r.server} › ${r.tool}`, description: summariseArgs(r.args), rec: r })),
        { title: 'MCP Host: Copy Call as mcp-host Command' },
      );
      const shell = picked && (await pickShell());
      if (picked && shell)
        await copy(
          mcpHostCallLine(picked.rec.server, picked.rec.tool, picked.rec.args, { shell }),
          'the mcp-host call line',
        );
    },
    'mcpHost.copyServerAsClaudeAdd': async (arg?: unknown) => {
      const name = await pick(arg, 'Copy Server as claude mcp add');
      const def = name ? deps.definition(name) : undefined;
      const shell = def && (await pickShell());
      if (def && shell)
        await copy(
          claudeMcpAddLine(def.name, await writtenEntry(def), { shell }),
          `the claude mcp add line of ${def.name}`,
        );
    },
    'mcpHost.copyServerAsMcpJson': async (arg?: unknown) => {
      const name = await pick(arg, 'Copy Server as .mcp.json');
      const def = name ? deps.definition(name) : undefined;
      if (def) await copy(mcpJsonSnippet(def.name, await writtenEntry(def)), `the .mcp.json entry of ${def.name}`);
    },
  };
  return { disposables, commands, providers };
}
