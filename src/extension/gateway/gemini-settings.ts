/**
 * Connect an Agent's entries for Gemini CLI, in the project's `.gemini/settings.json` (same
 * `mcpServers` shape as `.mcp.json`; edited in place, comments kept). Values name the variables
 * every integrated terminal has; Gemini CLI expands `${VAR}` when it loads the file, so no token is
 * stored. `gemini mcp add` is not offered: it rewrites the file's other entries with their
 * variables already expanded, which would store the tokens.
 */
import * as vscode from 'vscode';
import { setServerEntry } from '../../core/config/index.js';
import { readText, writeText } from '../config/file-edits.js';

export const GEMINI_ENTRIES: Record<string, Record<string, unknown>> = {
  'mcp-host': {
    type: 'http',
    url: '${MCP_HOST_GATEWAY_URL}',
    headers: { Authorization: 'Bearer ${MCP_HOST_GATEWAY_TOKEN}' },
  },
  // Gemini CLI's IDE interface has no diagnostics message; its model reaches them as this tool of the editor's Gemini IDE server.
  'mcp-host-diagnostics': {
    type: 'http',
    url: 'http://127.0.0.1:${GEMINI_CLI_IDE_SERVER_PORT}/mcp',
    headers: { Authorization: 'Bearer ${GEMINI_CLI_IDE_AUTH_TOKEN}' },
    includeTools: ['getDiagnostics'],
  },
};

/** Adds (or replaces) both entries; returns the file written. */
export async function writeGeminiEntries(folder: vscode.Uri): Promise<string> {
  const uri = vscode.Uri.joinPath(folder, '.gemini', 'settings.json');
  let text = await readText(uri);
  for (const [name, entry] of Object.entries(GEMINI_ENTRIES)) text = setServerEntry(text, 'mcp.json', name, entry);
  await writeText(uri, text ?? '');
  return uri.fsPath;
}
