/**
 * Which servers VS Code's own MCP support also runs, and whether MCP Host leaves them to it.
 * Free of `vscode` so it is unit tested on plain Node; shared-servers.ts feeds it the editor's facts.
 *
 * What VS Code reads (verified in 1.139.1, src/vs/workbench/contrib/mcp): `.vscode/mcp.json` of
 * every folder (since 1.99; MCP is generally available with the provider API in 1.101) and, in
 * 1.139, the root `.mcp.json` of every folder. It starts a server when chat needs tools
 * (`chat.mcp.autostart`) or when asked in "MCP: List Servers". No setting an extension may write
 * keeps one of those copies stopped (per-server enablement is UI state; `chat.mcp.deniedServers`
 * is an application-scoped policy setting outside the settings schema; `chat.mcp.access: "none"`
 * would also cut off MCP Host's gateway), so the one-copy choice is to leave them to VS Code.
 */
import { join } from 'node:path';
import type { ServerDefinition } from '../../core/config/index.js';

/** `mcpHost.sharedServers`. */
export type SharedServersChoice = 'ask' | 'vscode' | 'both';

export function parseChoice(v: unknown): SharedServersChoice {
  return v === 'vscode' || v === 'both' ? v : 'ask';
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

/** Admission's hook: the user left the servers VS Code runs itself to VS Code. */
export function leftToEditor(
  def: ServerDefinition,
  choice: SharedServersChoice,
  folders: readonly string[],
  reads: EditorReads,
): boolean {
  return choice === 'vscode' && readByEditor(def, folders, reads);
}
