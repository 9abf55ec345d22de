/**
 * The CLI's list cache: one private state file per workspace folder under the user's config
 * folder, so `mcp-host serve` and the other commands see each server's last lists as the editor
 * does. `--clear-list-cache` drops it before the run.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ListCache } from '../core/connection/index.js';
import { systemClock } from '../core/ports.js';
import { cliConfigDir, FileKeyValueStore } from './auth-store.js';

export function cliListCache(
  env: Record<string, string | undefined>,
  workspace: string,
  warn: (message: string) => void,
): ListCache {
  const folder = createHash('sha256').update(workspace).digest('hex').slice(0, 32);
  return new ListCache(new FileKeyValueStore(join(cliConfigDir(env), 'list-cache', folder), warn), systemClock);
}
