/**
 * Copy as…: a call as an `mcp-host call` line, a server as a `claude mcp add` line or `.mcp.json`
 * JSON, each from the entry as the user wrote it and quoted for the shell it goes to.
 */
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { parse as parseJsonc } from 'jsonc-parser';
import type { ServerDefinition } from '../../core/config/index.js';
import {
  claudeMcpAddLine,
  mcpHostCallLine,
  mcpJsonSnippet,
  type Shell,
  type WrittenEntry,
} from '../../core/dev/index.js';
import { summariseArgs } from '../../core/calls/index.js';
import { redactArgs } from '../../core/redact.js';
import type { CommandTable } from '../command-table.js';
import { readSettings } from '../settings.js';
import type { InspectorDeps, PickServer } from './inspector-deps.js';

/** On Windows a line may be pasted into PowerShell, cmd or a POSIX shell (Git Bash, WSL): each quotes differently. */
async function pickShell(): Promise<Shell | undefined> {
  if (process.platform !== 'win32') return 'posix';
  const items: (vscode.QuickPickItem & { shell: Shell })[] = [
    { label: 'PowerShell', shell: 'powershell' },
    { label: 'Command Prompt (cmd)', shell: 'cmd' },
    { label: 'POSIX shell', description: 'Git Bash, WSL', shell: 'posix' },
  ];
  return (await vscode.window.showQuickPick(items, { title: 'Quote the line for which shell?' }))?.shell;
}

function at(doc: unknown, path: (string | number)[]): unknown {
  let v = doc;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/**
 * The entry as the user wrote it (variables unexpanded), read back from its file or setting: a
 * copied line must carry `${…}` references, never values the host expanded. Servers from other
 * sources fall back to the resolved config with secret arguments hidden.
 */
export async function writtenEntry(def: ServerDefinition): Promise<WrittenEntry> {
  const src = def.source;
  let raw: unknown;
  if (src.file.startsWith('settings:')) {
    const servers = readSettings().servers;
    raw = servers !== null && typeof servers === 'object' ? (servers as Record<string, unknown>)[def.name] : undefined;
  } else {
    try {
      raw = at(parseJsonc(await readFile(src.file, 'utf8')), src.jsonPath);
    } catch {
      raw = undefined;
    }
  }
  if (raw && typeof raw === 'object') return raw as WrittenEntry;
  const c = def.config;
  if (c.type === 'stdio') return { command: c.command, args: redactArgs(c.args), ...(c.env ? { env: c.env } : {}) };
  if (c.type === 'inprocess')
    throw new Error(`${def.name} runs inside another extension; it has no command line to copy`);
  return { type: c.type, url: c.url, ...(c.headers ? { headers: c.headers } : {}) };
}

async function copy(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(`$(clippy) Copied ${what}`, 5000);
}

export function copyCommands(
  deps: InspectorDeps,
  pick: PickServer,
): Pick<CommandTable, 'mcpHost.copyCallAsCommand' | 'mcpHost.copyServerAsClaudeAdd' | 'mcpHost.copyServerAsMcpJson'> {
  return {
    'mcpHost.copyCallAsCommand': async () => {
      const records = deps.history.list();
      if (records.length === 0) {
        void vscode.window.showInformationMessage('No tool calls yet in this window.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        records.map((r) => ({ label: `${r.server} › ${r.tool}`, description: summariseArgs(r.args), rec: r })),
        { title: 'MCP Host: Copy Call as mcp-host Command' },
      );
      const shell = picked && (await pickShell());
      if (picked && shell)
        await copy(
          mcpHostCallLine(picked.rec.server, picked.rec.tool, picked.rec.args, { shell }),
          'the mcp-host call line',
        );
    },
    'mcpHost.copyServerAsClaudeAdd': async (arg?: unknown) => {
      const name = await pick(arg, 'Copy Server as claude mcp add');
      const def = name ? deps.definition(name) : undefined;
      const shell = def && (await pickShell());
      if (def && shell)
        await copy(
          claudeMcpAddLine(def.name, await writtenEntry(def), { shell }),
          `the claude mcp add line of ${def.name}`,
        );
    },
    'mcpHost.copyServerAsMcpJson': async (arg?: unknown) => {
      const name = await pick(arg, 'Copy Server as .mcp.json');
      const def = name ? deps.definition(name) : undefined;
      if (def) await copy(mcpJsonSnippet(def.name, await writtenEntry(def)), `the .mcp.json entry of ${def.name}`);
    },
  };
}
