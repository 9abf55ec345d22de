/**
 * The editor's user settings.json, read and edited outside the editor (the CLI), so the CLI and
 * the editor see the same user servers. Its location is VS Code's default per platform,
 * overridable (`--user-settings`, `MCP_HOST_USER_SETTINGS`) for other editions (Insiders,
 * VSCodium, code-server) and for tests.
 */
import { posix, win32 } from 'node:path';
import { readDocument } from './sources/entry.js';
import type { ConfigProblem } from './types.js';

export interface UserSettingsLocation {
  override?: string;
  env: Record<string, string | undefined>;
  homeDir: string;
  platform: NodeJS.Platform;
}

export function userSettingsFile(o: UserSettingsLocation): string {
  if (o.override) return o.override;
  if (o.env.MCP_HOST_USER_SETTINGS) return o.env.MCP_HOST_USER_SETTINGS;
  if (o.platform === 'win32')
    return win32.join(o.env.APPDATA ?? win32.join(o.homeDir, 'AppData', 'Roaming'), 'Code', 'User', 'settings.json');
  if (o.platform === 'darwin')
    return posix.join(o.homeDir, 'Library', 'Application Support', 'Code', 'User', 'settings.json');
  return posix.join(o.env.XDG_CONFIG_HOME || posix.join(o.homeDir, '.config'), 'Code', 'User', 'settings.json');
}

/**
 * The value of `mcpHost.servers` in the file (undefined when the file or the key is missing) and
 * the whole settings object, for the few other `mcpHost.*` settings the CLI honours.
 */
export async function readUserSettingsServers(
  file: string,
): Promise<{ servers?: unknown; settings: Record<string, unknown>; problems: ConfigProblem[] }> {
  const d = await readDocument(file, 'user', true);
  return { servers: d.doc?.['mcpHost.servers'], settings: d.doc ?? {}, problems: d.problems };
}
