import * as vscode from 'vscode';
import { parse } from 'jsonc-parser';
import {
  addInputDeclarations,
  type ConfigFileFormat,
  inputIdsIn,
  type PromptStringInput,
  removeServerEntry,
  type ServerDefinition,
  setServerEntry,
  updateServerEntry,
} from '../../core/config/index.js';
import { userServersSetting } from '../settings.js';

/** The scopes `Add Server…` and Enable/Disable write to; other scopes are never edited. */
export type EditableScope = 'user' | 'workspace' | 'project';

const USER_FILE = 'settings:mcpHost.servers';

function formatOf(scope: 'workspace' | 'project'): ConfigFileFormat {
  return scope === 'project' ? 'mcp.json' : 'vscode-mcp.json';
}

function fileFor(scope: 'workspace' | 'project', folder: string): vscode.Uri {
  const root = vscode.Uri.file(folder);
  return scope === 'project'
    ? vscode.Uri.joinPath(root, '.mcp.json')
    : vscode.Uri.joinPath(root, '.vscode', 'mcp.json');
}

export async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return undefined;
    throw e;
  }
}

export async function writeText(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

/** The user setting is an object; VS Code's own writer keeps settings.json's comments. */
async function updateUserServers(fn: (servers: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  await userServersSetting.update(fn({ ...userServersSetting.get() }));
}

/**
 * Adds (or replaces) a server entry and returns the file written (`settings:mcpHost.servers` for
 * the user setting). The entry is validated by the core editor before anything is written, and a
 * file with a JSON error is left as it is (ConfigEditError says where the error is).
 */
export async function writeServerEntry(
  scope: EditableScope,
  folder: string | undefined,
  name: string,
  entry: Record<string, unknown>,
): Promise<string> {
  if (scope === 'user') {
    // Validate with the same rules as the files; the result text itself is not used.
    setServerEntry(undefined, 'settings', name, entry);
    await updateUserServers((s) => ({ ...s, [name]: entry }));
    return USER_FILE;
  }
  if (!folder) throw new Error('Open a folder to add a server to its config file.');
  const uri = fileFor(scope, folder);
  const text = await readText(uri);
  await writeText(uri, setServerEntry(text, formatOf(scope), name, entry));
  return uri.fsPath;
}

/** Writes `"disabled": true` into the entry (or removes it) in the entry's own file. */
export async function setDisabled(def: ServerDefinition, disabled: boolean): Promise<void> {
  const key = String(def.source.jsonPath[def.source.jsonPath.length - 1] ?? def.name);
  const scope = def.source.scope;
  if (scope === 'user') {
    await updateUserServers((s) => {
      const entry = s[key];
      if (!entry || typeof entry !== 'object')
        throw new Error(`"${key}" is not in your user settings (mcpHost.servers).`);
      const next: Record<string, unknown> = { ...(entry as Record<string, unknown>) };
      if (disabled) next.disabled = true;
      else delete next.disabled;
      return { ...s, [key]: next };
    });
    return;
  }
  if (scope !== 'workspace' && scope !== 'project') throw new Error(`${scope} servers are not edited by MCP Host.`);
  const uri = vscode.Uri.file(def.source.file);
  const text = await readText(uri);
  if (text === undefined) throw new Error(`${def.source.file} no longer exists.`);
  await writeText(uri, updateServerEntry(text, formatOf(scope), key, { disabled: disabled ? true : undefined }));
}

/** The file a scope's entries live in: what `${input:…}` values are keyed by (see ports/inputs.ts). */
export function scopeFile(scope: EditableScope, folder: string | undefined): string {
  if (scope === 'user') return USER_FILE;
  if (!folder) throw new Error('Open a folder to add a server to its config file.');
  return fileFor(scope, folder).fsPath;
}

/** Declares `${input:…}` inputs in the folder's `.vscode/mcp.json` (comments kept). */
export async function declareInputs(folder: string, inputs: readonly PromptStringInput[]): Promise<void> {
  const uri = fileFor('workspace', folder);
  await writeText(uri, addInputDeclarations((await readText(uri)) ?? '{\n  "servers": {}\n}\n', inputs));
}

/** `${input:…}` ids used in `text` (a file's text or a JSON-serialised value). */
function inputIds(text: string): Set<string> {
  return new Set(inputIdsIn(text));
}

/**
 * Removes exactly this entry from its own file (or the user setting); comments and other entries
 * stay. Returns the file key and the `${input:…}` ids only this entry used, whose stored values
 * the caller can forget.
 */
export async function removeServerFromConfig(
  def: ServerDefinition,
): Promise<{ file: string; orphanedInputs: string[] }> {
  const key = String(def.source.jsonPath[def.source.jsonPath.length - 1] ?? def.name);
  const scope = def.source.scope;
  if (scope === 'user') {
    let before = new Set<string>();
    let after = new Set<string>();
    await updateUserServers((s) => {
      if (!(key in s)) throw new Error(`"${key}" is not in your user settings (mcpHost.servers).`);
      const { [key]: gone, ...rest } = s;
      before = inputIds(JSON.stringify(gone));
      after = inputIds(JSON.stringify(rest));
      return rest;
    });
    return { file: USER_FILE, orphanedInputs: [...before].filter((id) => !after.has(id)) };
  }
  if (scope !== 'workspace' && scope !== 'project')
    throw new Error(`"${def.name}" comes from ${def.source.file} (${scope}), which MCP Host does not edit.`);
  const uri = vscode.Uri.file(def.source.file);
  const text = await readText(uri);
  if (text === undefined) throw new Error(`${def.source.file} no longer exists.`);
  const next = removeServerEntry(text, formatOf(scope), key);
  await writeText(uri, next);
  const before = inputIds(
    JSON.stringify(
      (parse(text) as Record<string, Record<string, unknown> | undefined>)?.[
        scope === 'project' ? 'mcpServers' : 'servers'
      ]?.[key] ?? {},
    ),
  );
  // Still referenced elsewhere in the file (the `inputs` declaration itself does not count).
  const rest = parse(next) as Record<string, unknown> | undefined;
  const after = inputIds(JSON.stringify(rest?.[scope === 'project' ? 'mcpServers' : 'servers'] ?? {}));
  return { file: def.source.file, orphanedInputs: [...before].filter((id) => !after.has(id)) };
}

/** The text of the scope's file (user scope: its servers), for what it already uses; undefined when there is none. */
export async function scopeText(scope: EditableScope, folder: string | undefined): Promise<string | undefined> {
  if (scope === 'user') return JSON.stringify(userServersSetting.get());
  return folder ? readText(fileFor(scope, folder)) : undefined;
}

/** Names in the scope's file, for clash checks before a write. */
export async function namesInScope(scope: EditableScope, folder: string | undefined): Promise<Set<string>> {
  if (scope === 'user') return new Set(Object.keys(userServersSetting.get()));
  if (!folder) return new Set();
  const text = await readText(fileFor(scope, folder));
  if (!text) return new Set();
  const doc = parse(text) as Record<string, unknown> | undefined;
  const servers = doc?.[scope === 'project' ? 'mcpServers' : 'servers'];
  return new Set(servers && typeof servers === 'object' ? Object.keys(servers) : []);
}

/** Creates an empty config file (when missing) so the user can start typing entries. */
export async function createConfigFile(file: string, scope: 'workspace' | 'project'): Promise<void> {
  const uri = vscode.Uri.file(file);
  if ((await readText(uri)) !== undefined) return;
  const root = scope === 'project' ? 'mcpServers' : 'servers';
  await writeText(uri, `{\n  "${root}": {}\n}\n`);
}

/** Replaces the entry's own `sandbox` object in its file (comments elsewhere in the file are kept). */
export async function setEntrySandbox(def: ServerDefinition, sandbox: (current: unknown) => unknown): Promise<string> {
  const key = String(def.source.jsonPath[def.source.jsonPath.length - 1] ?? def.name);
  const scope = def.source.scope;
  if (scope === 'user') {
    await updateUserServers((s) => {
      const entry = s[key];
      if (!entry || typeof entry !== 'object')
        throw new Error(`"${key}" is not in your user settings (mcpHost.servers).`);
      const e = entry as Record<string, unknown>;
      return { ...s, [key]: { ...e, sandbox: sandbox(e.sandbox) } };
    });
    return USER_FILE;
  }
  if (scope !== 'workspace' && scope !== 'project')
    throw new Error(`"${def.name}" comes from ${def.source.file} (${scope}), which MCP Host does not edit.`);
  const uri = vscode.Uri.file(def.source.file);
  const text = await readText(uri);
  if (text === undefined) throw new Error(`${def.source.file} no longer exists.`);
  const doc = parse(text) as Record<string, Record<string, Record<string, unknown>> | undefined> | undefined;
  const current = doc?.[scope === 'project' ? 'mcpServers' : 'servers']?.[key]?.sandbox;
  await writeText(uri, updateServerEntry(text, formatOf(scope), key, { sandbox: sandbox(current) }));
  return def.source.file;
}
