/**
 * `MCP Host: Connect an Agent…`: the three ways an agent reaches the gateway. The `.mcp.json`
 * entry and the `claude mcp add` line use `${MCP_HOST_GATEWAY_URL}` / `${MCP_HOST_GATEWAY_TOKEN}`,
 * which every integrated terminal of this window has, so nothing secret lands in a file and the
 * entry keeps working after the editor restarts (new port, new token).
 */
import * as vscode from 'vscode';
import { writeServerEntry } from '../config/file-edits.js';
import { writeGeminiEntries } from './gemini-settings.js';

export const CONNECT_AGENT_COMMAND = 'mcpHost.connectAgent';

/** The project `.mcp.json` entry (Claude Code format; it expands `${VAR}` from its environment). */
export const GATEWAY_ENTRY = {
  type: 'http',
  url: '${MCP_HOST_GATEWAY_URL}',
  headers: { Authorization: 'Bearer ${MCP_HOST_GATEWAY_TOKEN}' },
};

/** For Claude Code started in an integrated terminal; the shell fills in the variables. */
export const CLAUDE_ADD_LINE =
  'claude mcp add --transport http mcp-host "$MCP_HOST_GATEWAY_URL" --header "Authorization: Bearer $MCP_HOST_GATEWAY_TOKEN"';

/** The entry, command line and JSON for one profile's endpoint (`/mcp/<profile>`). */
export function forProfile(profile: string): { name: string; entry: typeof GATEWAY_ENTRY; addLine: string } {
  const path = `/${encodeURIComponent(profile)}`;
  return {
    name: `mcp-host-${profile}`,
    entry: { ...GATEWAY_ENTRY, url: `${GATEWAY_ENTRY.url}${path}` },
    addLine: CLAUDE_ADD_LINE.replace(
      'mcp-host "$MCP_HOST_GATEWAY_URL"',
      `mcp-host-${profile} "$MCP_HOST_GATEWAY_URL${path}"`,
    ),
  };
}

/** JSON for clients outside the editor: this session's URL and token (they change on restart). */
export function clientJson(url: string, token: string, name = 'mcp-host'): string {
  return JSON.stringify(
    { mcpServers: { [name]: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } },
    null,
    2,
  );
}

/** @param profiles `mcpHost.gateway.profiles` names; with any, the user first picks what the agent gets. */
export async function connectAgent(
  endpoint: { url: string; token: string } | undefined,
  profiles: string[] = [],
): Promise<void> {
  if (!endpoint) {
    const open = 'Open Settings';
    const pick = await vscode.window.showWarningMessage(
      'The MCP Host gateway is off. Turn on "mcpHost.gateway.enabled" so agents can use your servers.',
      open,
    );
    if (pick === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'mcpHost.gateway.enabled');
    return;
  }
  let profile: string | undefined;
  if (profiles.length > 0) {
    const all = { label: 'All servers', description: 'everything the gateway offers' };
    const picked = await vscode.window.showQuickPick(
      [all, ...profiles.map((p) => ({ label: p, description: 'profile (mcpHost.gateway.profiles)' }))],
      { title: 'Connect an Agent to MCP Host', placeHolder: 'Which servers and tools should the agent get?' },
    );
    if (!picked) return;
    if (picked !== all) profile = picked.label;
  }
  const target = profile !== undefined ? forProfile(profile) : undefined;
  const name = target?.name ?? 'mcp-host';
  const url = profile !== undefined ? `${endpoint.url}/${encodeURIComponent(profile)}` : endpoint.url;
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  type Item = vscode.QuickPickItem & { run(): Promise<string> };
  const items: Item[] = [
    {
      label: '$(file-add) Add to this project’s .mcp.json',
      detail: folder
        ? `Claude Code and other agents started in an integrated terminal of ${folder.name} use it.`
        : 'Open a folder first.',
      run: async () => {
        if (!folder) throw new Error('Open a folder to add the gateway to its .mcp.json.');
        const file = await writeServerEntry('project', folder.uri.fsPath, name, target?.entry ?? GATEWAY_ENTRY);
        return `Added "${name}" to ${file}. MCP Host itself never connects to it.`;
      },
    },
    {
      label: '$(terminal) Copy a `claude mcp add` command line',
      detail: 'Run it in an integrated terminal of this window.',
      run: async () => {
        await vscode.env.clipboard.writeText(target?.addLine ?? CLAUDE_ADD_LINE);
        return 'Copied the `claude mcp add` command line.';
      },
    },
    {
      label: '$(file-add) Add to this project’s .gemini/settings.json',
      detail: folder
        ? `Gemini CLI started in an integrated terminal of ${folder.name}: your servers through the gateway, and the editor’s diagnostics. It finds the editor (open files, diffs) by itself.`
        : 'Open a folder first.',
      run: async () => {
        if (!folder) throw new Error('Open a folder to add the gateway to its .gemini/settings.json.');
        const file = await writeGeminiEntries(folder.uri);
        return `Added "mcp-host" and "mcp-host-diagnostics" to ${file}. They hold no secret: Gemini CLI reads the terminal's variables.`;
      },
    },
    {
      label: '$(json) Copy JSON for other clients',
      detail: 'This session’s URL and token; they change when the editor restarts.',
      run: async () => {
        await vscode.env.clipboard.writeText(clientJson(url, endpoint.token, name));
        return 'Copied the JSON. It holds this session’s token: keep it private.';
      },
    },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Connect an Agent to MCP Host',
    placeHolder: `The gateway runs at ${url}`,
  });
  if (!pick) return;
  try {
    void vscode.window.showInformationMessage(await pick.run());
  } catch (err) {
    void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
  }
}
