/**
 * One connection attempt's lifetime (rust-analyzer's per-restart scope): an AbortController and
 * the timers started for it. Stopping, restarting or removing a server disposes the scope, which
 * cancels what is in flight; code that outlives an await asks `scope.disposed` instead of
 * comparing launch counters.
 */
import type { Clock, Disposable } from '../ports.js';

export class AttemptScope implements Disposable {
  private readonly abort = new AbortController();
  private readonly timers = new Set<Disposable>();

  constructor(private readonly clock: Clock) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get disposed(): boolean {
    return this.abort.signal.aborted;
  }

  /** A timer on the clock port that dies with the scope (never fires after dispose). */
  setTimeout(fn: () => void, ms: number): void {
    if (this.disposed) return;
    const t = this.clock.setTimeout(() => {
      this.timers.delete(t);
      if (!this.disposed) fn();
    }, ms);
    this.timers.add(t);
  }

  get hasTimers(): boolean {
    return this.timers.size > 0;
  }

  dispose(): void {
    this.abort.abort();
    for (const t of this.timers) t.dispose();
    this.timers.clear();
  }
}
