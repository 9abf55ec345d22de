/**
 * Remembers which servers answered "needs auth", so a background connect does not probe them
 * again for 15 minutes (every probe is a network round trip and, for some servers, a log entry
 * on their side). Kept in the KeyValueStore so it survives a window reload; writes serialised.
 */
import type { Clock, KeyValueStore } from '../ports.js';
import { systemClock } from '../ports.js';

export const NEEDS_AUTH_TTL_MS = 15 * 60 * 1000;
const STORE_KEY = 'mcpHost.needsAuth';

type Entries = Record<string, number>;

export class NeedsAuthCache {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock = systemClock,
    private readonly ttlMs = NEEDS_AUTH_TTL_MS,
  ) {}

  /** True while `key` is inside its quiet period. */
  isFresh(key: string): boolean {
    const at = this.entries()[key];
    return at !== undefined && this.clock.now() - at < this.ttlMs;
  }

  mark(key: string): Promise<void> {
    return this.write((e) => {
      e[key] = this.clock.now();
    });
  }

  /** Called when the user asks (Authenticate, Start) or a sign-in succeeded. */
  clear(key: string): Promise<void> {
    if (!(key in this.entries())) return this.chain;
    return this.write((e) => {
      delete e[key];
    });
  }

  private entries(): Entries {
    const v = this.kv.get<Entries>(STORE_KEY);
    return v && typeof v === 'object' ? v : {};
  }

  private write(change: (e: Entries) => void): Promise<void> {
    this.chain = this.chain
      .catch(() => undefined)
      .then(async () => {
        const e = { ...this.entries() };
        change(e);
        // Expired entries are dropped on every write so the stored object stays small.
        const now = this.clock.now();
        for (const [k, at] of Object.entries(e)) if (now - at >= this.ttlMs) delete e[k];
        await this.kv.update(STORE_KEY, e);
      });
    return this.chain;
  }
}
