/** Where a server's OAuth state lives: one SecretStore entry per (name, transport identity). */
import { createHash } from 'node:crypto';
import type { ServerDefinition } from '../config/types.js';

export const SECRET_PREFIX = 'mcp-host.oauth/';

/**
 * `mcp-host.oauth/<name>/<sha256(type, url, headers)>`: a changed URL or header set (a different
 * account, tenant or API key) never reuses tokens issued for the old one. Header names are
 * case-insensitive and their order does not matter, so both are normalised before hashing.
 */
export function serverAuthKey(def: Pick<ServerDefinition, 'name' | 'config'>): string {
  const c = def.config as { type: string; url?: string; headers?: Record<string, string> };
  const headers = Object.entries(c.headers ?? {})
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const digest = createHash('sha256')
    .update(JSON.stringify([c.type, c.url ?? '', headers]))
    .digest('hex');
  return `${SECRET_PREFIX}${def.name}/${digest}`;
}
