/** Which server an Inspector command is for: named by its argument, or picked from the configured ones. */
import * as vscode from 'vscode';
import type { McpHost } from '../../core/host.js';
import { DETAILS_SCHEME } from './schemes.js';

/** The server a command argument names: a name, a details document's URI or a tree item. */
export function serverOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri && arg.scheme === DETAILS_SCHEME)
    return decodeURIComponent(arg.path.replace(/^\//, '').replace(/\.md$/, ''));
  const s = (arg as { server?: unknown } | undefined)?.server;
  return typeof s === 'string' ? s : undefined;
}

export async function pickServer(
  host: McpHost,
  arg: unknown,
  title: string,
  connectedOnly = false,
): Promise<string | undefined> {
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
}
