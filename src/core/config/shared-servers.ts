/**
 * Which servers VS Code's own MCP support also runs, and who runs each of them: VS Code or MCP Host.
 * Free of `vscode` so it is unit tested on plain Node; the extension's vscode-mcp/ feeds it the
 * editor's facts (its version, its settings) and writes the choices back as workspace settings.
 *
 * What VS Code reads (verified in 1.139.1, src/vs/workbench/contrib/mcp): `.vscode/mcp.json` of
 * every folder (since 1.99; MCP is generally available with the provider API in 1.101) and, in
 * 1.139, the root `.mcp.json` of every folder. It starts a server when chat needs tools
 * (`chat.mcp.autostart`) or when asked in "MCP: List Servers". No setting an extension may write
 * keeps one of those copies stopped (per-server enablement is UI state; `chat.mcp.deniedServers`
 * is an application-scoped policy setting outside the settings schema; `chat.mcp.access: "none"`
 * would also cut off MCP Host's gateway), so the one-copy choice is to leave them to VS Code.
 *
 * Two settings decide, both per workspace: `mcpHost.sharedServers` answers for all of them (the
 * offer writes it), `mcpHost.sharedServersPerServer` for one server by name (the tree's "Take Back
 * from VS Code" / "Leave to VS Code" write it) and wins over the first.
 */
import { join } from 'node:path';
import type { ServerDefinition } from './types.js';

/** `mcpHost.sharedServers`. */
export type SharedServersChoice = 'ask' | 'vscode' | 'both';

/** A value of `mcpHost.sharedServersPerServer`: who runs that one server. */
export type ServerRunner = 'vscode' | 'mcpHost';

/** `mcpHost.sharedServersPerServer`: server name → who runs it. */
export type PerServerChoices = Readonly<Record<string, ServerRunner>>;

export function parseChoice(v: unknown): SharedServersChoice {
  return v === 'vscode' || v === 'both' ? v : 'ask';
}

/** Keeps only well-formed entries: a hand-edited setting with a typo must not hide a server. */
export function parsePerServer(v: unknown): PerServerChoices {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, ServerRunner> = {};
  for (const [name, runner] of Object.entries(v as Record<string, unknown>))
    if (runner === 'vscode' || runner === 'mcpHost') out[name] = runner;
  return out;
}

/** Both settings as read for one workspace. */
export interface SharedChoices {
  workspace: SharedServersChoice;
  perServer: PerServerChoices;
}

/** The config files VS Code itself reads in this editor. */
export interface EditorReads {
  vscodeMcpJson: boolean;
  rootMcpJson: boolean;
}

function atLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split(/[.-]/).map((p) => Number.parseInt(p, 10));
  return a > major || (a === major && b >= minor);
}

/**
 * `hasProviderApi`: the editor has the final MCP API (1.101+), i.e. VS Code's MCP support is on by
 * default. `access`: the `chat.mcp.access` setting (`"none"` turns VS Code's MCP support off).
 */
export function editorReads(version: string, hasProviderApi: boolean, access: unknown): EditorReads {
  const on = hasProviderApi && access !== 'none' && access !== false;
  return { vscodeMcpJson: on, rootMcpJson: on && atLeast(version, 1, 139) };
}

/** True when `def` comes from a file VS Code reads itself: a folder's `.vscode/mcp.json` or root `.mcp.json`. */
export function readByEditor(def: ServerDefinition, folders: readonly string[], reads: EditorReads): boolean {
  const file = def.source.file;
  if (def.source.scope === 'workspace' && reads.vscodeMcpJson)
    return folders.some((f) => file === join(f, '.vscode', 'mcp.json'));
  if (def.source.scope === 'project' && reads.rootMcpJson) return folders.some((f) => file === join(f, '.mcp.json'));
  return false;
}

/**
 * Who runs a server VS Code also reads: its own entry first, then the workspace answer ("ask" and
 * "both" leave MCP Host running it, as before anyone answered). Undefined: VS Code does not run it.
 */
export function whoRuns(
  def: ServerDefinition,
  choices: SharedChoices,
  folders: readonly string[],
  reads: EditorReads,
): ServerRunner | undefined {
  if (!readByEditor(def, folders, reads)) return undefined;
  return choices.perServer[def.name] ?? (choices.workspace === 'vscode' ? 'vscode' : 'mcpHost');
}

/** Admission's hook: the user left this server to VS Code (for the workspace or for it alone). */
export function leftToEditor(
  def: ServerDefinition,
  choices: SharedChoices,
  folders: readonly string[],
  reads: EditorReads,
): boolean {
  return whoRuns(def, choices, folders, reads) === 'vscode';
}

/** The per-server setting after choosing `runner` for `name`; the input is not changed. */
export function withRunner(perServer: PerServerChoices, name: string, runner: ServerRunner): PerServerChoices {
  return { ...perServer, [name]: runner };
}

/**
 * The per-server setting after the workspace-wide answer for `names` (the offer): their own entries
 * go, so the answer applies to every server it listed. Undefined when nothing is left (the setting
 * is then removed rather than written as `{}`).
 */
export function withoutServers(perServer: PerServerChoices, names: readonly string[]): PerServerChoices | undefined {
  const out = Object.fromEntries(Object.entries(perServer).filter(([n]) => !names.includes(n)));
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The ids VS Code 1.139 gives its own entry of `def` (workbench.mcp.stopServer takes one):
 * `mcp.config.ws<folder index>.<name>` for a folder's .vscode/mcp.json and
 * `workspace-dot-mcp.<folder index>.<name>` for its root .mcp.json. Internal to VS Code, so a miss
 * only means its copy keeps running (the confirmation says how to stop it).
 */
export function editorServerIds(def: ServerDefinition, folders: readonly string[]): string[] {
  const ids: string[] = [];
  folders.forEach((f, i) => {
    if (def.source.scope === 'workspace' && def.source.file === join(f, '.vscode', 'mcp.json'))
      ids.push(`mcp.config.ws${i}.${def.name}`);
    if (def.source.scope === 'project' && def.source.file === join(f, '.mcp.json'))
      ids.push(`workspace-dot-mcp.${i}.${def.name}`);
  });
  return ids;
}
