/**
 * Opt-in discovery of servers other apps configured: Claude Desktop, Claude Code (user file and
 * the open folders' project sections), Cursor, Windsurf, and the agent CLIs Copilot, Gemini and
 * Codex (other-hosts.ts). Read only; never written.
 */
import { dirname, posix, win32 } from 'node:path';
import type { ConfigProblem } from '../types.js';
import { readConfigFile } from '../jsonc.js';
import { entriesAt, readDocument, type RawEntry, type SourceResult } from './entry.js';
import { codexEntry, copilotEntry, geminiEntry, parseCodexConfig } from './other-hosts.js';

// The list lives below config, beside the setting whose default it is (setting-defaults.ts).
export { DISCOVERY_SOURCES } from '../../setting-defaults.js';
import type { DISCOVERY_SOURCES } from '../../setting-defaults.js';
export type DiscoverySource = (typeof DISCOVERY_SOURCES)[number];

export interface DiscoveryOptions {
  homeDir: string;
  platform: NodeJS.Platform;
  /** For %APPDATA% on Windows. */
  env: Record<string, string | undefined>;
}

/** Where each app keeps its file on the given platform. */
export function discoveryFile(source: DiscoverySource, o: DiscoveryOptions): string {
  const p = o.platform === 'win32' ? win32 : posix;
  switch (source) {
    case 'claude-desktop':
      if (o.platform === 'darwin')
        return p.join(o.homeDir, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (o.platform === 'win32')
        return p.join(o.env.APPDATA ?? p.join(o.homeDir, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      return p.join(o.homeDir, '.config', 'Claude', 'claude_desktop_config.json');
    case 'claude-code':
      return p.join(o.homeDir, '.claude.json');
    case 'cursor':
      return p.join(o.homeDir, '.cursor', 'mcp.json');
    case 'windsurf':
      return p.join(o.homeDir, '.codeium', 'windsurf', 'mcp_config.json');
    case 'copilot-cli':
      return p.join(o.homeDir, '.copilot', 'mcp-config.json');
    case 'gemini-cli':
      return p.join(o.homeDir, '.gemini', 'settings.json');
    case 'codex':
      return p.join(o.env.CODEX_HOME || p.join(o.homeDir, '.codex'), 'config.toml');
  }
}

function samePath(a: string, b: string, platform: NodeJS.Platform): boolean {
  const norm = (s: string) => {
    let n = s.replace(/\\/g, '/').replace(/\/+$/, '');
    if (platform === 'win32' || platform === 'darwin') n = n.toLowerCase();
    return n;
  };
  return norm(a) === norm(b);
}

/** Windsurf writes `serverUrl` for remote servers; the shared schema calls it `url`. */
function windsurfEntry(e: RawEntry): RawEntry {
  const v = e.value as Record<string, unknown> | null;
  if (v && typeof v === 'object' && !Array.isArray(v) && v.url === undefined && typeof v.serverUrl === 'string') {
    const { serverUrl, ...rest } = v;
    return { ...e, value: { ...rest, url: serverUrl } };
  }
  return e;
}

// Lower precedence first: within the discovered scope a later entry shadows an earlier one, and
// Claude Code's project section is the most specific.
const ORDER: DiscoverySource[] = [
  'claude-desktop',
  'windsurf',
  'cursor',
  'gemini-cli',
  'codex',
  'copilot-cli',
  'claude-code',
];

/** Where each app's servers sit in its document, and how an entry maps to our shape. */
const LAYOUT: Partial<Record<DiscoverySource, { path: string[]; map: (e: RawEntry) => RawEntry }>> = {
  windsurf: { path: ['mcpServers'], map: windsurfEntry },
  'copilot-cli': { path: ['mcpServers'], map: copilotEntry },
  'gemini-cli': { path: ['mcpServers'], map: geminiEntry },
  codex: { path: ['mcp_servers'], map: codexEntry },
};

/** The app's file as a document: JSON (JSONC for Gemini CLI, which allows comments) or Codex's TOML. */
async function readSource(
  source: DiscoverySource,
  file: string,
): Promise<{ doc?: Record<string, unknown>; text?: string; problems: ConfigProblem[] }> {
  if (source !== 'codex') return readDocument(file, 'discovered', source === 'gemini-cli');
  const r = await readConfigFile(file, 'discovered');
  if (r.kind === 'missing') return { problems: [] };
  if (r.kind === 'error') return { problems: [r.problem] };
  return parseCodexConfig(r.text, file);
}

/** Reads the enabled sources; `folders` selects Claude Code's `projects[<folder>]` sections. */
export async function readDiscovered(
  sources: readonly DiscoverySource[],
  folders: string[],
  o: DiscoveryOptions,
): Promise<SourceResult> {
  const out: SourceResult = { entries: [], problems: [], files: [] };
  for (const source of ORDER.filter((s) => sources.includes(s))) {
    const file = discoveryFile(source, o);
    out.files.push(file);
    const d = await readSource(source, file);
    const problems: ConfigProblem[] = [...d.problems];
    if (d.doc) {
      const only = folders.length === 1 ? folders[0] : undefined;
      const base = { file, scope: 'discovered' as const, baseDir: dirname(file), text: d.text, workspaceFolder: only };
      const layout = LAYOUT[source];
      let entries = entriesAt(d.doc, layout?.path ?? ['mcpServers'], base, problems);
      if (layout) entries = entries.map(layout.map);
      if (source === 'claude-code') {
        const projects = d.doc.projects;
        if (projects && typeof projects === 'object' && !Array.isArray(projects)) {
          for (const folder of [...folders].reverse()) {
            const key = Object.keys(projects).find((k) => samePath(k, folder, o.platform));
            if (key === undefined) continue;
            entries = entries.concat(
              entriesAt(
                d.doc,
                ['projects', key, 'mcpServers'],
                { ...base, folder, workspaceFolder: folder, baseDir: folder },
                problems,
              ),
            );
          }
        }
      }
      out.entries.push(...entries);
    }
    out.problems.push(...problems);
  }
  return out;
}
