/**
 * Time to a usable tree on restart (every server's tools visible), with 10 servers: cold (no
 * list cache: tools appear as each server connects) against cached (the last run's lists).
 */
import type { KeyValueStore } from '../src/core/ports.js';
import { systemClock } from '../src/core/ports.js';
import { ListCache } from '../src/core/connection/list-cache.js';
import { figure, type Figure } from './lib/stats.js';
import { quietHost, tinyServer } from './lib/host.js';

class MemoryStore implements KeyValueStore {
  private readonly map = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.map.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    // Serialised as a real store would be, so reading it back costs what a restart costs.
    this.map.set(key, value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
  }
}

/** From setDefinitions until every server shows tools (cached or live), in ms. */
async function untilToolsVisible(n: number, cache: ListCache | undefined): Promise<number> {
  const host = quietHost(cache ? { listCache: cache } : {});
  const defs = Array.from({ length: n }, (_, i) => tinyServer(`s${i}`));
  const t0 = performance.now();
  const visible = () => host.servers().filter((s) => s.tools.length > 0).length === n;
  const done = new Promise<void>((resolve) => {
    host.onDidChangeServer(() => {
      if (visible()) resolve();
    });
  });
  host.setDefinitions(defs);
  if (!visible()) await done;
  const ms = performance.now() - t0;
  // The lists are written when a server connects: wait for all, so the next run finds them.
  await host.whenSettled();
  await host.dispose();
  return ms;
}

export async function listCache(quick: boolean): Promise<Figure[]> {
  const n = quick ? 3 : 10;
  const rounds = quick ? 1 : 3;
  const cold: number[] = [];
  const warm: number[] = [];
  for (let r = 0; r < rounds; r++) {
    cold.push(await untilToolsVisible(n, undefined));
    const cache = new ListCache(new MemoryStore(), systemClock);
    await untilToolsVisible(n, cache); // the run before the restart fills it
    warm.push(await untilToolsVisible(n, cache));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return [
    figure('startup', `${n} servers: tools visible on restart (cached)`, median(warm), 'ms', {
      name: 'cold',
      value: median(cold),
    }),
  ];
}
