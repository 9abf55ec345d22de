/**
 * 2026-07-28 list and read results carry cache hints (`ttlMs`, `cacheScope`). The spec makes them
 * a server's MUST, and SDK v2 refuses a result without them (its wire schema, before any caller's
 * schema runs), so such a server showed no tools at all. The same spec tells a client to take an
 * absent `ttlMs` as 0 (stale at once), and servers written by hand or on other SDKs leave the hints
 * out: an absent hint is filled in (ttl 0, private) before the SDK checks the result. A hint that is
 * present but wrong is still refused, and so is everything else the SDK checks (a tool without a
 * name, a missing `resultType`).
 */
import type { ConnectionState } from './state.js';

/** The cacheable methods, each with the key of the array its result carries. */
export const CACHEABLE_METHODS = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'resources/read': 'contents',
} as const;

export type CacheableMethod = keyof typeof CACHEABLE_METHODS;

/** What an absent hint stands for: stale at once, and for this client only. */
export const ABSENT_CACHE_HINTS = { ttlMs: 0, cacheScope: 'private' } as const;

/** Requests of each cacheable method awaiting their response on one connection. */
export type CacheableInFlight = Record<CacheableMethod, number>;

export function noCacheableInFlight(): CacheableInFlight {
  return {
    'tools/list': 0,
    'prompts/list': 0,
    'resources/list': 0,
    'resources/templates/list': 0,
    'resources/read': 0,
  };
}

const METHODS = Object.entries(CACHEABLE_METHODS) as [CacheableMethod, string][];

/**
 * The result with its absent hints filled in, and the method it answers, or undefined when it needs
 * nothing. The response does not say which request it answers; the array it carries does, among
 * the methods in flight (no other result has these keys: a tool call answers `content`).
 */
export function withAbsentCacheHints(
  result: unknown,
  inFlight: CacheableInFlight,
): { result: Record<string, unknown>; method: CacheableMethod } | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const r = result as Record<string, unknown>;
  if (r.ttlMs !== undefined && r.cacheScope !== undefined) return undefined;
  for (const [method, key] of METHODS) {
    if (inFlight[method] === 0 || !Array.isArray(r[key])) continue;
    return {
      method,
      result: {
        ...r,
        ttlMs: r.ttlMs ?? ABSENT_CACHE_HINTS.ttlMs,
        cacheScope: r.cacheScope ?? ABSENT_CACHE_HINTS.cacheScope,
      },
    };
  }
  return undefined;
}

/** The server-log line for a server that left the hints out (logged once per server and method). */
export function missingCacheHintsWarning(method: CacheableMethod): string {
  return (
    `${method} result without ttlMs/cacheScope: a 2026-07-28 server must send them; ` +
    'taken as stale (ttlMs 0, private), so it is asked again each time'
  );
}

/** The methods one server answered without cache hints: each is warned about once per server. */
export class CacheHintWarnings {
  private readonly methods = new Set<CacheableMethod>();

  /** False when `method` was already known. */
  add(method: CacheableMethod): boolean {
    if (this.methods.has(method)) return false;
    this.methods.add(method);
    return true;
  }

  message(method: CacheableMethod): string {
    return missingCacheHintsWarning(method);
  }

  /** A connected state with the warnings known so far (`mcp-host doctor` shows them). */
  addTo(state: ConnectionState): ConnectionState {
    if (state.kind !== 'connected' || this.methods.size === 0) return state;
    return { ...state, protocolWarnings: [...this.methods].map(missingCacheHintsWarning) };
  }
}
