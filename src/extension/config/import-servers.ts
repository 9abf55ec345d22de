import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { DISCOVERY_SOURCES, type DiscoverySource, planImport, readImportSource } from '../../core/config/index.js';
import type { ConfigController } from './controller.js';
import { namesInScope, writeServerEntry, type EditableScope } from './file-edits.js';

const APP_NAMES: Record<DiscoverySource, string> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  windsurf: 'Windsurf',
  'copilot-cli': 'GitHub Copilot CLI (and VS Code 1.140+ global servers)',
  'gemini-cli': 'Gemini CLI',
  codex: 'OpenAI Codex',
};

/**
 * `Import Servers…`: pick an app, the servers to copy and where; names the target already has
 * are reported as clashes and kept as they are.
 */
export async function importServers(controller: ConfigController): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  const opts = { homeDir: homedir(), platform: process.platform, env: process.env };
  const sources = await Promise.all(
    DISCOVERY_SOURCES.map(async (s) => ({ s, r: await readImportSource(s, folders, opts) })),
  );
  const app = await vscode.window.showQuickPick(
    sources.map(({ s, r }) => ({
      label: APP_NAMES[s],
      description: `${r.candidates.length} server${r.candidates.length === 1 ? '' : 's'}`,
      detail: r.file,
      s,
      r,
    })),
    { title: 'MCP Host: Import Servers (1/3): from which app?', ignoreFocusOut: true },
  );
  if (!app) return;
  if (!app.r.candidates.length) {
    void vscode.window.showInformationMessage(`No servers found in ${app.r.file}.`);
    return;
  }
  const target = await pickTarget(folders);
  if (!target) return;
  const { scope, folder } = target;
  const decisions = planImport(app.r.candidates, await namesInScope(scope, folder), scope !== 'user');
  const picks = await vscode.window.showQuickPick(
    decisions.map((d) => ({
      label: d.name,
      description: d.action === 'import' ? undefined : `skipped: ${d.action === 'clash' ? 'name clash' : d.action}`,
      detail: d.reason,
      picked: d.action === 'import',
      d,
    })),
    { title: 'MCP Host: Import Servers (3/3): which servers?', canPickMany: true, ignoreFocusOut: true },
  );
  if (!picks) return;
  const imported: string[] = [];
  const skipped: string[] = [];
  for (const p of picks) {
    if (p.d.action !== 'import') {
      skipped.push(`${p.d.name} (${p.d.reason})`);
      continue;
    }
    controller.expectSelfAdded(p.d.name);
    await writeServerEntry(scope, folder, p.d.name, p.d.entry);
    imported.push(p.d.name);
  }
  const clashes = decisions.filter((d) => d.action === 'clash').map((d) => d.name);
  await controller.reload();
  const parts = [
    `Imported ${imported.length} server${imported.length === 1 ? '' : 's'} from ${app.label}${imported.length ? `: ${imported.join(', ')}` : ''}.`,
  ];
  if (clashes.length) parts.push(`Name clash, kept the existing entry: ${clashes.join(', ')}.`);
  if (skipped.length) parts.push(`Not imported: ${skipped.join('; ')}.`);
  void vscode.window.showInformationMessage(parts.join(' '));
}

/** Step 2: the file to import into (user settings, or a folder's shared file) and its folder. */
async function pickTarget(
  folders: string[],
): Promise<{ scope: EditableScope; folder: string | undefined } | undefined> {
  const scopes: (vscode.QuickPickItem & { scope: EditableScope })[] = [
    { label: 'User Settings', detail: 'Only for you (mcpHost.servers); entries are copied as written', scope: 'user' },
  ];
  if (folders.length) {
    scopes.push({
      label: 'Workspace: .vscode/mcp.json',
      detail: 'Entries with literal env or header values are not copied into shared files',
      scope: 'workspace',
    });
    scopes.push({
      label: 'Project: .mcp.json',
      detail: 'Shared with the team; entries with literal secrets are left out',
      scope: 'project',
    });
  }
  const scope = await vscode.window.showQuickPick(scopes, {
    title: 'MCP Host: Import Servers (2/3): into',
    ignoreFocusOut: true,
  });
  if (!scope) return undefined;
  const folder =
    scope.scope === 'user'
      ? undefined
      : folders.length === 1
        ? folders[0]
        : (await vscode.window.showWorkspaceFolderPick())?.uri.fsPath;
  if (scope.scope !== 'user' && !folder) return undefined;
  return { scope: scope.scope, folder };
}
