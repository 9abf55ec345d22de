/**
 * How agents outside the editor find a running gateway: `$MCP_HOST_HOME/gateway/<pid>.json`
 * (default home `~/.mcp-host`) holding `{url, token, pid, workspaceFolders}`. It carries the token,
 * so the folder is 0700 and the file 0600, written to a temp file and renamed. Files whose pid is
 * gone are stale: readers skip them and the next writer removes them.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { mcpHostHome } from '../user-dir.js';
import { ensurePrivateDir, pidAlive, removeFileSync, writePrivateFile } from '../private-file.js';

export interface GatewayDiscovery {
  url: string;
  token: string;
  pid: number;
  workspaceFolders: string[];
}

/** `$MCP_HOST_HOME` or `~/.mcp-host` (user-dir.ts: the sandbox hides it). */
export { mcpHostHome };

export function discoveryDir(env: Record<string, string | undefined> = process.env): string {
  return join(mcpHostHome(env), 'gateway');
}

export function discoveryFile(dir: string, pid: number): string {
  return join(dir, `${pid}.json`);
}

function parse(text: string): GatewayDiscovery | undefined {
  try {
    const v = JSON.parse(text) as Partial<GatewayDiscovery>;
    if (typeof v.url !== 'string' || typeof v.token !== 'string' || typeof v.pid !== 'number') return undefined;
    return {
      url: v.url,
      token: v.token,
      pid: v.pid,
      workspaceFolders: Array.isArray(v.workspaceFolders)
        ? v.workspaceFolders.filter((f): f is string => typeof f === 'string')
        : [],
    };
  } catch {
    return undefined;
  }
}

/** Live gateways, newest file first; stale and unreadable files are skipped. */
export async function readDiscovery(
  dir: string,
  isAlive: (pid: number) => boolean = pidAlive,
): Promise<GatewayDiscovery[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const found: { d: GatewayDiscovery; mtime: number }[] = [];
  for (const name of names) {
    if (!/^\d+\.json$/.test(name)) continue;
    try {
      const file = join(dir, name);
      const [text, st] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
      const d = parse(text);
      if (d && isAlive(d.pid)) found.push({ d, mtime: st.mtimeMs });
    } catch {
      // Removed while we read, or not readable: not a gateway we can use.
    }
  }
  return found.sort((a, b) => b.mtime - a.mtime).map((f) => f.d);
}

async function removeStale(dir: string, isAlive: (pid: number) => boolean): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(\d+)\.json$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && !isAlive(pid)) await fs.rm(join(dir, name), { force: true }).catch(() => undefined);
  }
}

/** Writes this process's discovery file atomically; removes stale ones first. Returns its path. */
export async function writeDiscovery(
  dir: string,
  content: GatewayDiscovery,
  isAlive: (pid: number) => boolean = pidAlive,
): Promise<string> {
  await ensurePrivateDir(dir);
  await removeStale(dir, isAlive);
  return writePrivateFile(dir, `${content.pid}.json`, JSON.stringify(content));
}

/** Synchronous, for process exit. */
export const removeDiscoverySync = removeFileSync;
