/** In-memory fakes of the core ports (secrets, storage, clock, browser), for unit and integration tests. */
import type { BrowserOpener, Clock, Disposable, KeyValueStore, SecretStore } from '../../src/core/ports.js';

export { MemoryLogger } from './logger.js';

export class MemorySecretStore implements SecretStore {
  readonly map = new Map<string, string>();
  async get(key: string) {
    return this.map.get(key);
  }
  async store(key: string, value: string) {
    this.map.set(key, value);
  }
  async delete(key: string) {
    this.map.delete(key);
  }
}

export class MemoryKeyValueStore implements KeyValueStore {
  readonly map = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    return this.map.get(key) as T | undefined;
  }
  async update(key: string, value: unknown) {
    this.writes++;
    // A real store serialises; a structured clone catches callers that mutate what they wrote.
    this.map.set(key, structuredClone(value));
  }
}

/** A clock that only moves when told to; timers fire on `advance`. */
export class FakeClock implements Clock {
  private t: number;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.t = start;
  }
  now() {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): Disposable {
    const timer = { at: this.t + ms, fn, live: true };
    this.timers.push(timer);
    // A cleared timer leaves the list at once: a fired or cleared one kept its closure (often a
    // whole old connection) alive, which a soak of reconnects measured as a leak of the host.
    return { dispose: () => ((timer.live = false), (this.timers = this.timers.filter((x) => x !== timer))) };
  }
  advance(ms: number) {
    this.t += ms;
    const due = this.timers.filter((x) => x.live && x.at <= this.t);
    this.timers = this.timers.filter((x) => x.live && x.at > this.t);
    for (const timer of due) {
      timer.live = false;
      timer.fn();
    }
  }
  /** Timers set and neither fired nor cleared. */
  pending(): number {
    return this.timers.length;
  }
}

/** A "browser" that hands each opened URL to `onOpen` (which may follow it in the background). */
export class FakeBrowser implements BrowserOpener {
  readonly opened: string[] = [];
  constructor(private readonly onOpen: (url: string) => void = () => {}) {}
  async open(url: string) {
    this.opened.push(url);
    this.onOpen(url);
    return true;
  }
}
