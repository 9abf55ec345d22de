/**
 * The protocol era of each connection (2026-07-28 "modern" or 2025-11-25 "legacy"). stdio and
 * Streamable HTTP connections negotiate: the SDK probes with `server/discover` and falls back to
 * `initialize`. SSE and WebSocket predate 2026-07-28 and stay legacy. The verdict is remembered per
 * server definition (its content signature, hashed: a signature may hold a token in an argument or
 * a URL) so a known server connects without a probe, after reconnects and restarts alike.
 */
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { signatureOf, stableHash } from '../config/signature.js';
import type { ServerConfig } from '../config/types.js';
import type { Clock, KeyValueStore } from '../ports.js';

export type ProtocolEra = 'modern' | 'legacy';

/** The newest revision MCP Host speaks, and the one before the stateless core. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** Whether a connection over this config negotiates the era, or goes straight to `initialize`. */
export function negotiatesEra(config: ServerConfig): boolean {
  return config.type === 'stdio' || config.type === 'http';
}

/**
 * A legacy verdict is not supplied past this age: a server upgraded to 2026-07-28 still answers
 * `initialize`, so only the age retires it (a stale modern verdict fails loudly and is dropped).
 */
export const LEGACY_VERDICT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

type Stored = { kind: 'modern'; discover: DiscoverResult; at: number } | { kind: 'legacy'; at: number };

const KEY = 'mcpHost.eraVerdicts';
/** Bounded, so definitions that come and go do not grow the store without end. */
const MAX_ENTRIES = 500;

export class EraVerdicts {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  /** The remembered verdict for this definition, if there is a fresh one. */
  prior(config: ServerConfig): PriorDiscovery | undefined {
    const v = this.all()[keyOf(config)];
    if (!v) return undefined;
    if (v.kind === 'modern') return { kind: 'modern', discover: v.discover };
    return this.clock.now() - v.at < LEGACY_VERDICT_MAX_AGE_MS ? { kind: 'legacy' } : undefined;
  }

  async remember(config: ServerConfig, discover: DiscoverResult | undefined): Promise<void> {
    const all = this.all();
    const key = keyOf(config);
    const at = this.clock.now();
    const prev = all[key];
    // The same verdict again: a legacy one keeps its first date, so the age still retires it.
    if (!discover && prev?.kind === 'legacy') return;
    all[key] = discover ? { kind: 'modern', discover, at } : { kind: 'legacy', at };
    await this.store.update(KEY, trimmed(all));
  }

  /** After a connect on the remembered verdict failed: the next connect probes afresh. */
  async forget(config: ServerConfig): Promise<void> {
    const all = this.all();
    const key = keyOf(config);
    if (!(key in all)) return;
    delete all[key];
    await this.store.update(KEY, all);
  }

  private all(): Record<string, Stored> {
    const v = this.store.get<Record<string, Stored>>(KEY);
    return v && typeof v === 'object' ? { ...v } : {};
  }
}

function keyOf(config: ServerConfig): string {
  return stableHash(signatureOf(config)).slice(0, 32);
}

function trimmed(all: Record<string, Stored>): Record<string, Stored> {
  const entries = Object.entries(all);
  if (entries.length <= MAX_ENTRIES) return all;
  return Object.fromEntries(entries.sort((a, b) => b[1].at - a[1].at).slice(0, MAX_ENTRIES));
}

/** A KeyValueStore that lasts as long as the host: reconnects still skip the probe. */
export function memoryStore(): KeyValueStore {
  const m = new Map<string, unknown>();
  return {
    get: <T>(key: string) => m.get(key) as T | undefined,
    update: async (key, value) => void m.set(key, value),
  };
}
