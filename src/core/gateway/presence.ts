/**
 * Which agents are there: the one count behind `Gateway.agentCount()` and the status bar.
 * - A session agent (2025-11-25 over HTTP) is there while it holds a connection open (its event
 *   stream, a call): one that initialized and left without ending its session (a health check, a
 *   killed process) is not.
 * - A connection agent (`mcp-host serve` over stdio, either era) is there until the connection closes.
 * - A stateless agent (2026-07-28 over HTTP) has no connection to watch: it is one agent per client
 *   identity (the `clientInfo` of its requests' `_meta`, and the endpoint's view), there while a
 *   request of it is open (a `subscriptions/listen` stream) and for `idleMs` after its last one.
 *   Two running copies of the same client at one endpoint count once: nothing on the wire tells them apart.
 */
import { Emitter, type Event } from '../events.js';
import type { Disposable } from '../ports.js';
import type { AgentView } from './views.js';

/** How long a stateless agent counts after its last request. */
export const DEFAULT_AGENT_IDLE_MS = 60_000;

interface Entry {
  open: number;
  /** Counted until then (ms since the epoch) even with nothing open; 0: only while open. */
  until: number;
}

/** A stateless agent's identity: its client's name and version, and the endpoint it uses. */
export function agentIdentity(clientInfo: unknown, view: AgentView): string {
  const info = (clientInfo ?? {}) as { name?: unknown; version?: unknown };
  const part = (v: unknown): string => (typeof v === 'string' ? v : '?');
  return JSON.stringify([part(info.name), part(info.version), view.profile ?? '', view.tools ?? '']);
}

export class AgentPresence implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<void>();
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(
    private readonly idleMs = DEFAULT_AGENT_IDLE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  count(): number {
    const t = this.now();
    let n = 0;
    for (const e of this.entries.values()) if (e.open > 0 || e.until > t) n++;
    return n;
  }

  /** `key` is there until the returned handle is disposed (a connection, an open request). */
  hold(key: string): Disposable {
    const e = this.entry(key);
    e.open++;
    this.settle();
    let done = false;
    return {
      dispose: () => {
        if (done) return;
        done = true;
        e.open--;
        this.settle();
      },
    };
  }

  /** A stateless agent's request: it is there now and for `idleMs` after. */
  touch(key: string): void {
    this.entry(key).until = this.now() + this.idleMs;
    this.settle();
  }

  private entry(key: string): Entry {
    let e = this.entries.get(key);
    if (!e) this.entries.set(key, (e = { open: 0, until: 0 }));
    return e;
  }

  /** Drops what has gone, tells listeners when the count moved, and wakes when the next agent goes idle. */
  private settle(): void {
    const t = this.now();
    let next = Infinity;
    for (const [k, e] of this.entries) {
      if (e.open > 0) continue;
      if (e.until <= t) this.entries.delete(k);
      else next = Math.min(next, e.until);
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    if (next !== Infinity) {
      this.timer = setTimeout(() => this.settle(), next - t + 1);
      this.timer.unref();
    }
    const n = this.count();
    if (n !== this.last) {
      this.last = n;
      this.changed.fire();
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.entries.clear();
    this.changed.dispose();
  }
}
