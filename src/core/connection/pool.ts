/**
 * A counting semaphore: at most `limit` holders at once, the next waiter admitted the moment a
 * slot is released (not fixed batches, so one slow server never holds back the others).
 */
export class Pool {
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`pool limit must be at least 1, got ${limit}`);
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
      const next = this.waiters.shift();
      // The slot passes straight to the next waiter; `active` stays the same.
      if (next) next();
      else this.active--;
    };
  }
}
