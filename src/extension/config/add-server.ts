import * as vscode from 'vscode';
import type { ConfigController } from './controller.js';
import {
  splitCommandLine,
  suggestServerName,
  validateCommandLine,
  validateServerName,
  validateServerUrl,
} from './cmdline.js';
import { writeServerEntry, type EditableScope } from './file-edits.js';

type Kind = 'stdio' | 'http' | 'sse' | 'ws';

/**
 * `Add Server…`: transport, command line or URL, name, where to save it. The file is edited with
 * jsonc-parser (comments and other entries survive) and the server starts right away.
 */
export async function addServer(controller: ConfigController): Promise<void> {
  const what = await askWhat();
  if (!what) return;
  const { entry, source } = what;

  const taken = new Set([
    ...controller.servers().map((s) => s.name),
    ...controller.problems().flatMap((p) => (p.server ? [p.server] : [])),
  ]);
  const name = await vscode.window.showInputBox({
    title: 'Add MCP Server (3/3): name',
    value: suggestServerName(source, taken),
    prompt: 'A short name; tools appear as mcp__<name>__<tool>',
    validateInput: (t) => validateServerName(t.trim(), taken),
    ignoreFocusOut: true,
  });
  if (name === undefined) return;

  const target = await pickTarget(name);
  if (!target) return;
  const { scope, folder } = target;

  const trimmed = name.trim();
  // Added by the user just now: it should start without asking them to approve their own entry.
  controller.expectSelfAdded(trimmed);
  // mcpHost.sandboxNewServers: new local servers start sandboxed unless their entry says otherwise.
  const sandboxNew = vscode.workspace.getConfiguration('mcpHost').get<boolean>('sandboxNewServers', false);
  const written =
    sandboxNew && typeof entry.command === 'string' && entry.sandboxEnabled === undefined
      ? { ...entry, sandboxEnabled: true }
      : entry;
  const file = await writeServerEntry(scope, folder?.uri.fsPath, trimmed, written);
  await controller.reload();
  const pick = await vscode.window.showInformationMessage(
    `Added MCP server "${trimmed}"; it is starting.`,
    'Open Config',
  );
  if (pick)
    await vscode.commands.executeCommand('mcpHost.openConfig', {
      file,
      jsonPath: file.startsWith('settings:')
        ? ['mcpHost.servers', trimmed]
        : [scope === 'project' ? 'mcpServers' : 'servers', trimmed],
    });
}

/** Steps 1 and 2: the transport, then the command line or URL; the entry and what it was made from. */
async function askWhat(): Promise<{ entry: Record<string, unknown>; source: string } | undefined> {
  const kinds: (vscode.QuickPickItem & { transport: Kind })[] = [
    {
      label: '$(terminal) Command (stdio)',
      detail: 'Runs a local program, e.g. npx -y @modelcontextprotocol/server-everything',
      transport: 'stdio',
    },
    {
      label: '$(globe) HTTP (Streamable HTTP)',
      detail: 'A remote server URL, e.g. https://example.com/mcp',
      transport: 'http',
    },
    { label: '$(radio-tower) Server-Sent Events (SSE)', detail: 'An older remote transport', transport: 'sse' },
    { label: '$(plug) WebSocket', detail: 'ws:// or wss:// URL', transport: 'ws' },
  ];
  const kind = await vscode.window.showQuickPick(kinds, {
    title: 'Add MCP Server (1/3): transport',
    placeHolder: 'How does MCP Host reach the server?',
    ignoreFocusOut: true,
  });
  if (!kind) return undefined;

  if (kind.transport === 'stdio') {
    const line = await vscode.window.showInputBox({
      title: 'Add MCP Server (2/3): command',
      prompt: 'The command line that starts the server (quotes work as in a shell; no variables are expanded here)',
      placeHolder: 'npx -y @modelcontextprotocol/server-everything',
      validateInput: validateCommandLine,
      ignoreFocusOut: true,
    });
    if (line === undefined) return undefined;
    const [command, ...args] = splitCommandLine(line);
    return { entry: { type: 'stdio', command, args }, source: line };
  } else {
    const url = await vscode.window.showInputBox({
      title: 'Add MCP Server (2/3): URL',
      placeHolder: kind.transport === 'ws' ? 'wss://example.com/mcp' : 'https://example.com/mcp',
      validateInput: (t) => validateServerUrl(t, kind.transport as 'http' | 'sse' | 'ws'),
      ignoreFocusOut: true,
    });
    if (url === undefined) return undefined;
    return { entry: { type: kind.transport, url: url.trim() }, source: url.trim() };
  }
}

/** Where to save `name`: a folder's shared file (which folder, when there are several) or the user settings. */
async function pickTarget(
  name: string,
): Promise<{ scope: EditableScope; folder: vscode.WorkspaceFolder | undefined } | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const scopes: (vscode.QuickPickItem & { scope: EditableScope })[] = [];
  if (folders.length) {
    scopes.push(
      {
        label: 'Project: .mcp.json',
        detail: 'Shared with the team and with Claude Code; teammates approve it before it runs',
        scope: 'project',
      },
      { label: 'Workspace: .vscode/mcp.json', detail: 'VS Code format, in this folder', scope: 'workspace' },
    );
  }
  scopes.push({ label: 'User Settings', detail: 'Only for you, in every window (mcpHost.servers)', scope: 'user' });
  const scope =
    scopes.length === 1
      ? scopes[0]
      : await vscode.window.showQuickPick(scopes, { title: `Save "${name}" where?`, ignoreFocusOut: true });
  if (!scope) return undefined;
  let folder: vscode.WorkspaceFolder | undefined;
  if (scope.scope !== 'user') {
    folder =
      folders.length === 1 ? folders[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which folder?' });
    if (!folder) return undefined;
  }
  return { scope: scope.scope, folder };
}
