import * as vscode from 'vscode';
import { findEntryOffset, findNearestOffset } from '../../core/config/index.js';
import type { ConfigController } from './controller.js';
import { createConfigFile } from './file-edits.js';

/** Where "open config" should land: a file and the JSON path of the entry inside it. */
export interface ConfigTarget {
  file: string;
  jsonPath: (string | number)[];
}

const SETTINGS_FILE = /^settings:/;

/** Opens `file` and selects the entry at `jsonPath` (or its nearest existing ancestor). */
export async function revealEntry(target: ConfigTarget): Promise<void> {
  if (SETTINGS_FILE.test(target.file)) {
    // The user setting lives in settings.json; open it and find `"mcpHost.servers" > name` there.
    await vscode.commands.executeCommand('workbench.action.openSettingsJson');
    const editor = vscode.window.activeTextEditor;
    if (!editor) return;
    const name = target.jsonPath[target.jsonPath.length - 1];
    const path = name === undefined || target.jsonPath.length < 2 ? ['mcpHost.servers'] : ['mcpHost.servers', name];
    select(editor, findEntryOffset(editor.document.getText(), path));
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(target.file));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  select(editor, findNearestOffset(doc.getText(), target.jsonPath));
}

function select(editor: vscode.TextEditor, loc: { offset: number; length: number } | undefined): void {
  if (!loc) return;
  const start = editor.document.positionAt(loc.offset);
  const end = editor.document.positionAt(loc.offset + loc.length);
  editor.selection = new vscode.Selection(start, end);
  editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

function exists(uri: vscode.Uri): Thenable<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}

/**
 * `mcpHost.openConfig` without a target: the config files of the open folders that exist, and the
 * user setting; with none, offers to create `.mcp.json`.
 */
export async function openConfigPicker(controller: ConfigController): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const candidates: { label: string; description: string; uri: vscode.Uri; root: string }[] = [];
  for (const f of folders) {
    for (const rel of ['.mcp.json', '.vscode/mcp.json']) {
      const uri = vscode.Uri.joinPath(f.uri, rel);
      if (await exists(uri))
        candidates.push({ label: rel, description: f.name, uri, root: rel === '.mcp.json' ? 'mcpServers' : 'servers' });
    }
  }
  const fromConfig = new Set(controller.servers().map((s) => s.definition.source.file));
  type Item = vscode.QuickPickItem & { run(): Promise<void> };
  const items: Item[] = candidates.map((c) => ({
    label: c.label,
    description: c.description,
    run: () => revealEntry({ file: c.uri.fsPath, jsonPath: [c.root] }),
  }));
  for (const file of fromConfig) {
    if (SETTINGS_FILE.test(file) || candidates.some((c) => c.uri.fsPath === file) || file.startsWith('dynamic'))
      continue;
    items.push({
      label: file.split(/[\\/]/).pop() ?? file,
      description: file,
      run: () => revealEntry({ file, jsonPath: [] }),
    });
  }
  items.push({
    label: 'User Settings',
    description: 'mcpHost.servers',
    run: () => revealEntry({ file: 'settings:mcpHost.servers', jsonPath: ['mcpHost.servers'] }),
  });
  if (candidates.length === 0) {
    if (folders.length === 0) {
      await items[items.length - 1].run();
      return;
    }
    const pick = await vscode.window.showInformationMessage(
      'This workspace has no MCP config file yet. Create .mcp.json?',
      'Create .mcp.json',
      'Open User Settings',
    );
    if (pick === 'Create .mcp.json') await createProjectConfig();
    else if (pick === 'Open User Settings') await items[items.length - 1].run();
    return;
  }
  if (candidates.length === 1 && fromConfig.size <= 1) {
    await items[0].run();
    return;
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: 'MCP Host: Open Config',
    placeHolder: 'Which configuration?',
  });
  await pick?.run();
}

/** Creates `.mcp.json` in a workspace folder (asking which, in a multi-root window) and opens it. */
export async function createProjectConfig(): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage('Open a folder first: .mcp.json lives in the folder it configures.');
    return;
  }
  const folder =
    folders.length === 1
      ? folders[0]
      : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder for .mcp.json' });
  if (!folder) return;
  const file = vscode.Uri.joinPath(folder.uri, '.mcp.json').fsPath;
  await createConfigFile(file, 'project');
  await revealEntry({ file, jsonPath: ['mcpServers'] });
}
