/**
 * Time to first and to all servers connected, through the host, against the bare SDK connecting
 * them one after another and all at once.
 */
import { cpus } from 'node:os';
import type { Client } from '@modelcontextprotocol/client';
import { DEFAULT_LOCAL_CONCURRENCY } from '../src/core/connection/settings.js';
import { figure, type Figure } from './lib/stats.js';
import { rawConnect } from './lib/rawsdk.js';
import { quietHost, tinyServer } from './lib/host.js';
import { memoryStore } from '../src/core/connection/era.js';
import { listCache } from './list-cache.js';

/** `firstEnv` sets s0 apart (e.g. a slow start); `othersAll` is then when every other server connected. */
async function viaHost(
  n: number,
  firstEnv?: Record<string, string>,
): Promise<{ first: number; all: number; othersAll: number }> {
  const slowFirst = firstEnv !== undefined;
  const host = quietHost();
  const defs = Array.from({ length: n }, (_, i) => tinyServer(`s${i}`, firstEnv && i === 0 ? firstEnv : {}));
  const t0 = performance.now();
  let first = NaN;
  let othersAll = NaN;
  let connected = 0;
  let othersConnected = 0;
  const done = new Promise<void>((resolve) => {
    host.onDidChangeServer((e) => {
      if (e.snapshot?.state.kind === 'connected') {
        connected++;
        if (Number.isNaN(first)) first = performance.now() - t0;
        if (!(slowFirst && e.name === 's0')) {
          othersConnected++;
          if (othersConnected === (slowFirst ? n - 1 : n)) othersAll = performance.now() - t0;
        }
        if (connected === n) resolve();
      }
    });
  });
  host.setDefinitions(defs);
  await done;
  const all = performance.now() - t0;
  await host.dispose();
  return { first, all, othersAll };
}

async function rawSequential(n: number): Promise<{ first: number; all: number }> {
  const clients: Client[] = [];
  const t0 = performance.now();
  let first = NaN;
  for (let i = 0; i < n; i++) {
    clients.push(await rawConnect());
    if (i === 0) first = performance.now() - t0;
  }
  const all = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  return { first, all };
}

async function rawAllAtOnce(n: number): Promise<{ first: number; all: number }> {
  const t0 = performance.now();
  let first = NaN;
  const clients = await Promise.all(
    Array.from({ length: n }, async () => {
      const c = await rawConnect();
      if (Number.isNaN(first)) first = performance.now() - t0;
      return c;
    }),
  );
  const all = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  return { first, all };
}

export async function startup(quick: boolean): Promise<Figure[]> {
  const out: Figure[] = [];
  const sizes = quick ? [1, 3] : [1, 10, 50];
  for (const n of sizes) {
    const seq = await rawSequential(n);
    const par = await rawAllAtOnce(n);
    const host = await viaHost(n);
    out.push(
      figure('startup', `${n} servers: first connected (host)`, host.first, 'ms', {
        name: 'SDK all at once',
        value: par.first,
      }),
    );
    out.push(
      figure(
        'startup',
        `${n} servers: all connected (host)`,
        host.all,
        'ms',
        { name: 'SDK all at once', value: par.all },
        n >= 50 ? { text: '≤ 1.25 × all-at-once', ok: (_v, r) => (r ?? Infinity) <= 1.25 } : undefined,
      ),
    );
    // Starting a server is CPU work, so the host can beat one-after-another by at most the number of
    // servers it starts at once on the cores there are: the target is held to that ceiling, printed.
    const ceiling = Math.min(cpus().length, DEFAULT_LOCAL_CONCURRENCY);
    out.push(
      figure(
        'startup',
        `${n} servers: sequential SDK / host`,
        seq.all / host.all,
        '×',
        undefined,
        n >= 50
          ? {
              text: `≥ 0.9 × min(${cpus().length} cores, pool ${DEFAULT_LOCAL_CONCURRENCY}) = ${(0.9 * ceiling).toFixed(1)}×`,
              ok: (v) => v >= 0.9 * ceiling,
            }
          : undefined,
      ),
    );
  }
  out.push(...(await eraConnect(quick ? 3 : 9)));
  if (!quick) {
    // The slow server is a whole Node process that loads the SDK before it sleeps: on 2 cores that
    // start-up alone delayed the other nine by about as much as an ordinary tenth server does
    // (2.1 s vs 2.1 s, against 1.5 s for nine alone). So the baseline is nine beside an ordinary
    // tenth, and what is left is what waiting on the slow one costs. Alternating rounds, median.
    const slow: number[] = [];
    const base: number[] = [];
    for (let round = 0; round < 3; round++) {
      slow.push((await viaHost(10, { DELAY_MS: '5000' })).othersAll);
      base.push((await viaHost(10, { ORDINARY: '1' })).othersAll);
    }
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
    const baseMs = median(base);
    out.push(
      figure(
        'startup',
        '9 servers beside a 5 s server: all 9 connected',
        median(slow),
        'ms',
        { name: '9 beside an ordinary 10th', value: baseMs },
        {
          text: 'delay < 100 ms',
          ok: (v) => v - baseMs < 100,
        },
      ),
    );
  }
  // Time to a usable tree on restart, cached lists against cold (list-cache.ts).
  out.push(...(await listCache(quick)));
  return out;
}

/**
 * One server's connect time through the host: negotiating against a remembered verdict (no
 * probe), beside a fresh probe and beside the plain 2025-11-25 handshake, for a server that speaks
 * 2025-11-25 only (the verdict is legacy) and for one that speaks both eras (the verdict is
 * 2026-07-28; beside the bare SDK v2 client negotiating and listing tools). Alternating rounds, median.
 */
async function eraConnect(rounds: number): Promise<Figure[]> {
  const store = memoryStore();
  const times = {
    known: [] as number[],
    probe: [] as number[],
    legacy: [] as number[],
    modernKnown: [] as number[],
    modernProbe: [] as number[],
    bareModern: [] as number[],
  };
  const once = async (era: 'auto' | 'legacy', fresh: boolean, env: Record<string, string> = {}): Promise<number> => {
    if (fresh) await store.update('mcpHost.eraVerdicts', {});
    const host = quietHost({ era, eraStore: store });
    const t = performance.now();
    host.setDefinitions([tinyServer('era', env)]);
    await host.whenSettled();
    const wall = performance.now() - t;
    const st = host.server('era')!.state;
    await host.dispose();
    const modern = env.ERAS === 'both';
    const want = modern ? '2026-07-28' : '2025-11-25';
    if (st.kind !== 'connected') return NaN;
    if (st.protocolVersion !== want) throw new Error(`connected on ${String(st.protocolVersion)}, not ${want}`);
    // With a known 2026-07-28 verdict there is no opening exchange at all, so "connected" comes
    // before the server has even started: the modern rows time the whole way to a listed tool.
    return modern ? wall : st.connectMs;
  };
  const bare = async (): Promise<number> => {
    const t = performance.now();
    const client = await rawConnect({ ERAS: 'both' }, true);
    await client.listTools();
    const ms = performance.now() - t;
    await client.close();
    return ms;
  };
  const both = { ERAS: 'both' };
  await once('auto', true);
  await once('auto', true, both);
  for (let i = 0; i < rounds; i++) {
    times.probe.push(await once('auto', true));
    times.known.push(await once('auto', false));
    times.legacy.push(await once('legacy', false));
    times.modernProbe.push(await once('auto', true, both));
    times.modernKnown.push(await once('auto', false, both));
    times.bareModern.push(await bare());
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
  return [
    figure('startup', 'connect with negotiation, known verdict', median(times.known), 'ms', {
      name: 'probing',
      value: median(times.probe),
    }),
    figure('startup', 'connect with negotiation, known verdict (vs 2025-11-25 only)', median(times.known), 'ms', {
      name: 'initialize only',
      value: median(times.legacy),
    }),
    figure('startup', 'connect + tools/list, 2026-07-28 server, known verdict', median(times.modernKnown), 'ms', {
      name: 'probing',
      value: median(times.modernProbe),
    }),
    figure(
      'startup',
      'connect + tools/list, 2026-07-28 server, known verdict (vs bare SDK)',
      median(times.modernKnown),
      'ms',
      {
        name: 'bare SDK negotiating',
        value: median(times.bareModern),
      },
    ),
  ];
}
