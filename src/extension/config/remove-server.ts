import * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/config/index.js';
import type { ConfigController } from './controller.js';
import { removeServerFromConfig } from './file-edits.js';
import { inputSecretKey } from '../ports/inputs.js';

const EDITABLE = new Set(['user', 'workspace', 'project']);

function where(def: ServerDefinition): string {
  return def.source.scope === 'user' ? 'your user settings' : vscode.workspace.asRelativePath(def.source.file);
}

/**
 * `Remove Server`: removes exactly that entry from its file (comments and every other entry
 * stay) after a confirmation; the reload then stops it, and stored values of `${input:…}`
 * secrets no other entry of the file uses are deleted. Servers from files MCP Host does not
 * own (managed, other apps, extensions) are explained rather than edited.
 */
export async function removeServer(
  controller: ConfigController,
  secrets: vscode.SecretStorage,
  name: string | undefined,
): Promise<void> {
  if (!name) {
    const picks = controller
      .servers()
      .map((s) => controller.definition(s.name))
      .filter((d): d is ServerDefinition => !!d && EDITABLE.has(d.source.scope))
      .map((d) => ({ label: d.name, description: where(d) }));
    if (!picks.length) {
      void vscode.window.showInformationMessage(
        'No server in .mcp.json, .vscode/mcp.json or your user settings to remove.',
      );
      return;
    }
    name = (
      await vscode.window.showQuickPick(picks, { title: 'MCP Host: Remove Server', placeHolder: 'Server to remove' })
    )?.label;
    if (!name) return;
  }
  const def = controller.definition(name);
  if (!def) throw new Error(`no server named "${name}"`);
  if (!EDITABLE.has(def.source.scope)) {
    void vscode.window.showInformationMessage(
      `"${name}" comes from ${def.source.file} (${def.source.scope}); MCP Host does not edit that file. Disable it instead, or remove it there.`,
    );
    return;
  }
  const ok = await vscode.window.showWarningMessage(
    `Remove MCP server "${name}" from ${where(def)}?`,
    { modal: true, detail: 'Only this entry is removed; comments and other servers in the file stay.' },
    'Remove',
  );
  if (ok !== 'Remove') return;
  const { file, orphanedInputs } = await removeServerFromConfig(def);
  // Secrets only this entry used (e.g. a token entered at install) go with it.
  for (const id of orphanedInputs) await secrets.delete(inputSecretKey(file, id));
  await controller.reload();
}
