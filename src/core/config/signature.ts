/** Content signature (dedupe key) and stable hashes of server configs. */
import { createHash } from 'node:crypto';
import type { ServerConfig } from './types.js';

/** `stdio:["cmd","arg"]`, `url:<url>` or `inprocess:<id>`: two entries with the same signature run the same server. */
export function signatureOf(config: ServerConfig): string {
  switch (config.type) {
    case 'stdio':
      return `stdio:${JSON.stringify([config.command, ...config.args])}`;
    case 'inprocess':
      return `inprocess:${config.id}`;
    default:
      return `url:${config.url}`;
  }
}

/** JSON with object keys sorted at every level; functions and undefined are left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'function') return undefined;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, (v as Record<string, unknown>)[k]]),
      );
    }
    return v;
  });
}

/** sha256 (hex) of the canonical JSON: independent of key order, changes with any value. */
export function stableHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
