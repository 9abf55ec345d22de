/**
 * Calls per person on the team gateway (`"gateway": {"rateLimit": {"callsPerMinute", "burst"}}`):
 * a token bucket per token subject, `burst` deep, refilled at `callsPerMinute`. In one process it is
 * here, in memory; processes that share a Redis share the buckets (core/cluster/rate-limit.ts).
 * What counts is what reaches upstream servers: tools/call, resources/read, prompts/get. Over the
 * limit the request is answered HTTP 429 with `Retry-After` and a JSON-RPC error naming the limit.
 */
import type { ServiceRateLimit } from './config.js';

export type RateVerdict = { ok: true } | { ok: false; retryAfterMs: number };

export interface CallLimiter {
  /** Takes one call from `who`'s bucket, or says how long until there is one. */
  take(who: string): Promise<RateVerdict>;
}

/** The methods that count, with what the audit line names. */
const COUNTED: Record<string, { kind: 'tool' | 'resource' | 'prompt'; name: (p: Record<string, unknown>) => unknown }> =
  {
    'tools/call': { kind: 'tool', name: (p) => p.name },
    'resources/read': { kind: 'resource', name: (p) => p.uri },
    'prompts/get': { kind: 'prompt', name: (p) => p.name },
  };

/** The call a request body makes, when it is one the limit counts. */
export function countedCall(
  body: unknown,
): { id: unknown; method: string; kind: 'tool' | 'resource' | 'prompt'; name: string } | undefined {
  const b = body as { method?: unknown; id?: unknown; params?: unknown } | undefined;
  if (typeof b?.method !== 'string' || b.id === undefined) return undefined;
  const c = COUNTED[b.method];
  if (!c) return undefined;
  const name = c.name((b.params ?? {}) as Record<string, unknown>);
  return { id: b.id, method: b.method, kind: c.kind, name: typeof name === 'string' ? name.slice(0, 200) : '' };
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept at most; a full bucket is the same as none, so those go first. */
const MAX_BUCKETS = 100_000;

export class MemoryRateLimiter implements CallLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    private readonly limit: ServiceRateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = limit.callsPerMinute / 60_000;
  }

  take(who: string): Promise<RateVerdict> {
    return Promise.resolve(this.takeNow(who));
  }

  takeNow(who: string): RateVerdict {
    const t = this.now();
    const b = this.buckets.get(who) ?? { tokens: this.limit.burst, at: t };
    b.tokens = Math.min(this.limit.burst, b.tokens + (t - b.at) * this.perMs);
    b.at = t;
    this.buckets.delete(who);
    this.buckets.set(who, b);
    if (this.buckets.size > MAX_BUCKETS) this.prune(t);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil((1 - b.tokens) / this.perMs) };
  }

  /** Drops the buckets that have refilled (the least recently used first), then the oldest. */
  private prune(t: number): void {
    for (const [who, b] of this.buckets) {
      if (this.buckets.size <= MAX_BUCKETS / 2) return;
      if (b.tokens + (t - b.at) * this.perMs >= this.limit.burst) this.buckets.delete(who);
    }
    for (const who of this.buckets.keys()) {
      if (this.buckets.size <= MAX_BUCKETS) return;
      this.buckets.delete(who);
    }
  }
}
