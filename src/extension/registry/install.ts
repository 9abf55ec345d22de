import * as vscode from 'vscode';
import { suggestedSandbox } from '../../core/sandbox/index.js';
import {
  buildEntry,
  inputIdsIn,
  type InstallChoice,
  type InstallVariable,
  planInstall,
  type RegistryServer,
  suggestedName,
} from '../../core/registry/index.js';
import { validateServerName } from '../config/cmdline.js';
import {
  declareInputs,
  namesInScope,
  scopeFile,
  scopeText,
  writeServerEntry,
  type EditableScope,
} from '../config/file-edits.js';
import { inputSecretKey } from '../ports/inputs.js';
import type { Logger } from '../../core/ports.js';
import type { ConfigController } from '../config/controller.js';

/** What browsing and installing from the registry need from the editor. */
export interface BrowseDeps {
  controller: ConfigController;
  secrets: vscode.SecretStorage;
  log: Logger;
}

/** Asks for one variable; undefined when the user cancelled. Secrets use a password box. */
async function ask(v: InstallVariable, step: string): Promise<string | undefined> {
  const title = `${step} ${v.label}${v.isRequired ? '' : ' (optional)'}`;
  if (v.choices?.length && !v.isSecret) {
    const pick = await vscode.window.showQuickPick(
      v.choices.map((c) => ({ label: c, description: c === v.default ? 'default' : undefined })),
      { title, placeHolder: v.description, ignoreFocusOut: true },
    );
    return pick?.label;
  }
  return vscode.window.showInputBox({
    title,
    prompt: `${v.description ?? v.label}${v.isSecret ? " — kept in the editor's secret storage, never written to a file" : ''}`,
    value: v.isSecret ? undefined : v.default,
    password: v.isSecret,
    ignoreFocusOut: true,
    validateInput: (t) => (v.isRequired && t.trim() === '' ? `${v.label} is required` : undefined),
  });
}

/**
 * Install: where to save it, its name, the values it needs; then the entry is written with the
 * comment-preserving edits and the server starts. Secret values go to SecretStorage under the
 * key `${input:ID}` resolves to, and the file only holds the reference.
 */
export async function installFromRegistry(
  server: RegistryServer,
  choice: InstallChoice,
  deps: BrowseDeps,
): Promise<void> {
  const first = planInstall(server, choice);
  const hasSecrets = first.variables.some((v) => v.isSecret);
  const target = await pickInstallTarget(server.name, hasSecrets);
  if (!target) return;
  const { scope, folder } = target;

  const taken = new Set([...deps.controller.servers().map((s) => s.name), ...(await namesInScope(scope, folder))]);
  const name = await vscode.window.showInputBox({
    title: `Install ${server.name}: name`,
    value: suggestedName(server, taken),
    prompt: 'A short name; tools appear as mcp__<name>__<tool>',
    validateInput: (t) => validateServerName(t.trim(), taken),
    ignoreFocusOut: true,
  });
  if (name === undefined) return;
  const trimmed = name.trim();

  // Planned again with the ids the file already uses, so a secret never resolves to another server's.
  const plan = planInstall(server, choice, inputIdsIn(await scopeText(scope, folder)));
  const answers = await askVariables(plan.variables, trimmed);
  if (!answers) return;
  const { values, secretValues } = answers;
  const built = buildEntry(plan, values, 'input');
  const secrets = built.secrets;
  const sandbox = choice.kind === 'package' ? await askSandbox(server, choice.index, trimmed) : undefined;
  if (sandbox === null) return;
  const entry = sandbox ? { ...built.entry, ...sandbox } : built.entry;

  const file = scopeFile(scope, folder);
  // The whole entry, fixed headers and arguments included, before anything is written or started.
  const ok = await vscode.window.showWarningMessage(
    `Install "${trimmed}" from the MCP registry into ${file}?`,
    {
      modal: true,
      detail: `This is written as is and starts at once:\n\n${JSON.stringify(entry, null, 2)}\n\nInstall it only if you trust ${server.name}.`,
    },
    'Install',
  );
  if (ok !== 'Install') return;
  for (const s of secrets) {
    const value = secretValues.get(s.id);
    if (value !== undefined) await deps.secrets.store(inputSecretKey(file, s.id), value);
  }
  if (scope === 'workspace' && secrets.length)
    await declareInputs(
      folder!,
      secrets.map((s) => ({ id: s.id, description: s.description ?? s.label, password: true })),
    );
  // Installed by the user just now: it starts without asking them to approve their own choice.
  deps.controller.expectSelfAdded(trimmed);
  await writeServerEntry(scope, folder, trimmed, entry);
  deps.log.info(
    `installed ${server.name}${server.version ? `@${server.version}` : ''} as "${trimmed}" (${plan.summary}) in ${file}`,
  );
  await deps.controller.reload();
  void vscode.window.showInformationMessage(`Installed "${trimmed}" from the MCP registry; it is starting.`);
}

/** Where to install: a folder's shared file (which folder, when there are several) or the user settings. */
async function pickInstallTarget(
  serverName: string,
  hasSecrets: boolean,
): Promise<{ scope: EditableScope; folder: string | undefined } | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const scopes: (vscode.QuickPickItem & { scope: EditableScope })[] = [];
  if (folders.length) {
    scopes.push(
      {
        label: 'Workspace: .vscode/mcp.json',
        description: hasSecrets ? 'recommended: secrets become password inputs' : undefined,
        detail: 'VS Code format, in this folder',
        scope: 'workspace',
      },
      {
        label: 'Project: .mcp.json',
        // Claude Code reads this file too, and it does not know `${input:…}`.
        detail: `Shared with the team and Claude Code; teammates approve it before it runs${hasSecrets ? '. Secrets are written as ${input:…}, which only MCP Host resolves' : ''}`,
        scope: 'project',
      },
    );
  }
  scopes.push({ label: 'User Settings', detail: 'Only for you, in every window (mcpHost.servers)', scope: 'user' });
  const scope =
    scopes.length === 1
      ? scopes[0]
      : await vscode.window.showQuickPick(scopes, { title: `Install ${serverName}: where?`, ignoreFocusOut: true });
  if (!scope) return undefined;
  let folder: string | undefined;
  if (scope.scope !== 'user') {
    const f =
      folders.length === 1 ? folders[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which folder?' });
    if (!f) return undefined;
    folder = f.uri.fsPath;
  }
  return { scope: scope.scope, folder };
}

/** The entry's variables, asked one by one: plain values, and secrets kept apart; undefined when a required one was left out. */
async function askVariables(
  variables: ReturnType<typeof planInstall>['variables'],
  name: string,
): Promise<{ values: Record<string, string | undefined>; secretValues: Map<string, string> } | undefined> {
  const values: Record<string, string | undefined> = {};
  const secretValues = new Map<string, string>();
  for (const [i, v] of variables.entries()) {
    const answer = await ask(v, `Install ${name} (${i + 1}/${variables.length}):`);
    if (answer === undefined) {
      if (v.isRequired) return undefined;
      continue;
    }
    if (v.isSecret) {
      if (answer !== '') secretValues.set(v.id, answer);
    } else values[v.id] = answer;
  }
  return { values, secretValues };
}

/**
 * Local packages from the registry are offered the sandbox (`mcpHost.sandboxRegistryInstalls`:
 * "ask", the default, "always" or "never"), with the domains the entry implies. null: cancelled.
 */
async function askSandbox(
  server: RegistryServer,
  index: number,
  name: string,
): Promise<ReturnType<typeof suggestedSandbox> | undefined | null> {
  const mode = vscode.workspace.getConfiguration('mcpHost').get<string>('sandboxRegistryInstalls', 'ask');
  if (mode === 'never') return undefined;
  const suggested = suggestedSandbox(server, index);
  if (mode === 'always') return suggested;
  const domains = suggested.sandbox.network?.allowedDomains ?? [];
  const pick = await vscode.window.showQuickPick(
    [
      {
        label: 'Run it in the sandbox',
        description: 'recommended',
        detail: `Writes only the workspace; network: ${domains.length ? domains.join(', ') : 'none'} (add more later with Allow in Sandbox…)`,
        sandboxed: true,
      },
      {
        label: 'Run it with your full rights',
        detail: 'It can read and write what you can and connect anywhere',
        sandboxed: false,
      },
    ],
    { title: `Install ${name}: sandbox?`, ignoreFocusOut: true },
  );
  if (!pick) return null;
  return pick.sandboxed ? suggested : undefined;
}
