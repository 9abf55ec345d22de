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

export const CLIENT_PREFIX = 'mcp-host.oauth-client/';

/**
 * `mcp-host.oauth-client/<sha256(issuer)>`: one client registration per authorization server, so
 * two servers behind one issuer share it and a server that moves to another issuer registers anew.
 * A single trailing slash is ignored, as the SDK's issuer comparison does.
 */
export function issuerClientKey(issuer: string): string {
  const normalised = issuer.endsWith('/') ? issuer.slice(0, -1) : issuer;
  return `${CLIENT_PREFIX}${createHash('sha256').update(normalised).digest('hex')}`;
}

export function sameIssuer(a: string, b: string): boolean {
  return a === b || (a.endsWith('/') && a.slice(0, -1) === b) || (b.endsWith('/') && b.slice(0, -1) === a);
}
