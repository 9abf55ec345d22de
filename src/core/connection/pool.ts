/**
 * A counting semaphore: at most `limit` holders at once, the next waiter admitted the moment a
 * slot is released (not fixed batches, so one slow server never holds back the others).
 */
export class Pool {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  private max: number;

  constructor(limit: number) {
    this.max = Pool.checked(limit);
  }

  private static checked(limit: number): number {
    if (!(limit >= 1)) throw new RangeError(`pool limit must be at least 1, got ${limit}`);
    return limit;
  }

  get limit(): number {
    return this.max;
  }

  /**
   * A new limit (the setting changed): a larger one admits waiters at once; a smaller one lets
   * holders finish and admits nobody new until the count is below it.
   */
  resize(limit: number): void {
    this.max = Pool.checked(limit);
    while (this.active < this.max && this.waiters.length) {
      this.active++;
      this.waiters.shift()!();
    }
  }

  get running(): number {
    return this.active;
  }

  /**
   * Resolves with a release function once a slot is free. Release is idempotent. With `signal`,
   * a waiter that is aborted leaves the queue and the promise rejects (a stopped server must not
   * wait for a slot just to give it back).
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new Error('aborted');
    if (this.active < this.limit) {
      this.active++;
    } else {
      await new Promise<void>((resolve, reject) => {
        const admit = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const i = this.waiters.indexOf(admit);
          if (i !== -1) this.waiters.splice(i, 1);
          reject(new Error('aborted'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiters.push(admit);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next waiter (`active` stays the same), unless the pool shrank.
      const next = this.active <= this.max ? this.waiters.shift() : undefined;
      if (next) next();
      else this.active--;
    };
  }
}
