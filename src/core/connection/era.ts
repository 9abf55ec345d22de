/**
 * The protocol era of each connection (2026-07-28 "modern" or 2025-11-25 "legacy"). stdio and
 * Streamable HTTP connections negotiate: the SDK probes with `server/discover` and falls back to
 * `initialize`. SSE and WebSocket predate 2026-07-28 and stay legacy. The verdict is remembered per
 * server definition (its content signature, hashed: a signature may hold a token in an argument or
 * a URL) so a known server connects without a probe, after reconnects and restarts alike.
 */
import { SERVER_INFO_META_KEY, type DiscoverResult, type PriorDiscovery } from '@modelcontextprotocol/client';
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
/**
 * One verdict's bound, and all of them together: a server's discover result is its own to size
 * (5 MB of instructions once made the CLI's state.json unreadable), and the store holds sign-in
 * state beside it, in the editor's globalState as in the CLI's file.
 */
export const MAX_VERDICT_BYTES = 16 * 1024;
export const MAX_VERDICTS_BYTES = 512 * 1024;

const sizeOf = (v: unknown): number => JSON.stringify(v).length;

/**
 * What `connect({ prior })` adopts from a discover result, and nothing else: the versions, the
 * capabilities, the instructions and the server's name (SDK `_connectFromPrior`). Undefined when
 * even that is over the bound: the next connect probes again, which costs one round trip and
 * loses nothing (cutting the instructions would hand agents a different text).
 */
function slimmed(d: DiscoverResult): DiscoverResult | undefined {
  const info = d._meta?.[SERVER_INFO_META_KEY];
  const out: DiscoverResult = {
    supportedVersions: d.supportedVersions,
    capabilities: d.capabilities,
    ...(d.instructions !== undefined ? { instructions: d.instructions } : {}),
    ...(info !== undefined ? { _meta: { [SERVER_INFO_META_KEY]: info } } : {}),
  };
  return sizeOf(out) <= MAX_VERDICT_BYTES ? out : undefined;
}

/** A stored verdict as this version writes it; anything else (older shapes, oversized, damaged) is dropped. */
function valid(v: unknown): v is Stored {
  if (!v || typeof v !== 'object') return false;
  const s = v as { kind?: unknown; at?: unknown; discover?: unknown };
  if (typeof s.at !== 'number') return false;
  if (s.kind === 'legacy') return true;
  if (s.kind !== 'modern' || !s.discover || typeof s.discover !== 'object') return false;
  const d = s.discover as { supportedVersions?: unknown; capabilities?: unknown };
  return (
    Array.isArray(d.supportedVersions) &&
    d.supportedVersions.every((x) => typeof x === 'string') &&
    !!d.capabilities &&
    typeof d.capabilities === 'object' &&
    sizeOf(v) <= MAX_VERDICT_BYTES + 64
  );
}

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
    const slim = discover && slimmed(discover);
    if (discover && !slim) {
      // Too big to remember: forget an older verdict too, so the next connect probes this one.
      if (key in all) await this.forget(config);
      return;
    }
    all[key] = slim ? { kind: 'modern', discover: slim, at } : { kind: 'legacy', at };
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

  /** The stored verdicts, each checked on its own: a damaged one is dropped, the others kept. */
  private all(): Record<string, Stored> {
    const v = this.store.get<Record<string, unknown>>(KEY);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, Stored] => valid(e[1])));
  }
}

/**
 * A stdio server's environment and folder are part of what it is: the same `npx` package or script
 * started with another env (`ERAS=both`, a feature flag, another account) may speak another era,
 * and sharing its verdict sent a 2025-11-25-only server 2026-07-28 requests (seen in the bench's
 * mixed run, whichever of two such servers connected first).
 */
function keyOf(config: ServerConfig): string {
  const extra = config.type === 'stdio' ? { env: config.env ?? {}, cwd: config.cwd ?? '' } : {};
  return stableHash([signatureOf(config), extra]).slice(0, 32);
}

/** The newest verdicts within both bounds: the oldest go first. */
function trimmed(all: Record<string, Stored>): Record<string, Stored> {
  const out: Record<string, Stored> = {};
  let bytes = 0;
  let count = 0;
  for (const [key, v] of Object.entries(all).sort((a, b) => b[1].at - a[1].at)) {
    bytes += key.length + sizeOf(v);
    if (++count > MAX_ENTRIES || bytes > MAX_VERDICTS_BYTES) break;
    out[key] = v;
  }
  return out;
}

/** A KeyValueStore that lasts as long as the host: reconnects still skip the probe. */
export function memoryStore(): KeyValueStore {
  const m = new Map<string, unknown>();
  return {
    get: <T>(key: string) => m.get(key) as T | undefined,
    update: async (key, value) => void m.set(key, value),
  };
}
