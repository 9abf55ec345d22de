/**
 * Faults and load together (issue 30): 20 servers of which 14 misbehave (crash mid-call, hang, exit
 * at random, answer slowly, write garbage, drop the HTTP connection, expire the session), 8 agents
 * on the gateway and 4 callers on the host API, while servers are restarted, disabled, re-enabled
 * and `.mcp.json` is edited. First the same callers run against the healthy servers alone: the
 * latency baseline of the same run. Each call carries a nonce the server must answer, so a reply
 * routed to the wrong call or agent is counted, and each call has a watchdog at its timeout + 1 s.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { figure, ratioAtMost, summarize, type Figure } from './lib/stats.js';
import {
  describeProcess,
  eraOf,
  isHealthy,
  processesWith,
  SERVERS,
  startChaosRig,
  type ChaosRig,
  type ChaosServer,
  type Era,
} from './lib/chaos-rig.js';
import { startChaosAgents, type ChaosAgents } from './lib/chaos-agents.js';
import { classifyError, Meddling } from './lib/chaos-errors.js';
import { describeReading, settledMemory, type MemoryReading } from './lib/chaos-memory.js';
import { writeHeapSnapshot } from 'node:v8';

const SEED = 30;
const HOST_TIMEOUT_MS = 2_000;
const AGENT_TIMEOUT_MS = 4_000;
const AGENTS = 8;
/** Half the gateway agents negotiate 2026-07-28, half initialize on 2025-11-25. */
const MODERN_AGENTS = 4;
const HOST_CALLERS = 4;

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Tally {
  calls: number;
  ok: number;
  errors: number;
  healthyErrors: string[];
  neverEnded: number;
  wrong: string[];
  healthyMs: number[];
  /** Healthy-server latencies over 1 s, with the caller: where a slow healthy call came from. */
  slowHealthy: string[];
  /** Per server: when its calls started failing (undefined while they succeed). */
  downSince: Map<string, number>;
  recoveryMs: number[];
  /** By the era of the server called. */
  servers: Record<Era, { calls: number; errors: number; healthyMs: number[] }>;
  /** By the era of the agent calling (host callers are not agents). */
  agents: Record<Era, { calls: number; neverEnded: number; wrong: number }>;
  /** Errors by cause ("fault: crash", "meddling: disable", "unexplained"), with one example each. */
  causes: Map<string, { n: number; example: string }>;
  /** Healthy calls left out of the latency figures: a forced GC for a memory sample ran during them. */
  gcOverlap: number;
}

function tally(): Tally {
  return {
    calls: 0,
    ok: 0,
    errors: 0,
    healthyErrors: [],
    neverEnded: 0,
    wrong: [],
    healthyMs: [],
    slowHealthy: [],
    downSince: new Map(),
    recoveryMs: [],
    servers: { legacy: { calls: 0, errors: 0, healthyMs: [] }, modern: { calls: 0, errors: 0, healthyMs: [] } },
    agents: { legacy: { calls: 0, neverEnded: 0, wrong: 0 }, modern: { calls: 0, neverEnded: 0, wrong: 0 } },
    causes: new Map(),
    gcOverlap: 0,
  };
}

/** Forced collections so far (memory samples): a call that saw one is no latency sample. */
let forcedGcs = 0;

/**
 * Holds the callers and the meddler for a memory reading: no new call or operation starts while it
 * is closed, and `drained` waits for those under way (a call past its watchdog is not waited for).
 */
class Pause {
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  /** Calls started and not yet ended or past their watchdog; meddling operations under way. */
  busy = 0;

  async wait(): Promise<void> {
    while (this.gate) await this.gate;
  }

  close(): void {
    this.gate ??= new Promise((r) => (this.open = r));
  }

  release(): void {
    this.gate = undefined;
    this.open?.();
  }

  /** True once nothing is under way, false if something still was after `limitMs`. */
  async drained(limitMs: number): Promise<boolean> {
    const end = performance.now() + limitMs;
    while (this.busy > 0 && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
    return this.busy === 0;
  }
}

const pause = new Pause();

type Caller = (server: string, nonce: string) => Promise<{ text: string; isError: boolean }>;

/** Agent `i` of the agents' process: its error text comes back as the rejection's message. */
function gatewayCaller(agents: ChaosAgents, i: number): Caller {
  return (server, nonce) => agents.call(i, `${server}__echo`, nonce, AGENT_TIMEOUT_MS);
}

function hostCaller(rig: ChaosRig): Caller {
  return async (server, nonce) => {
    const r = await rig.host.callTool(server, 'echo', { nonce }, { timeoutMs: HOST_TIMEOUT_MS });
    return { text: r.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), isError: r.isError };
  };
}

interface CallerSpec {
  call: Caller;
  limitMs: number;
  id: string;
  /** Set for a gateway agent. */
  era?: Era;
}

/** One call with its watchdog; the call itself is never abandoned (the run waits for it at the end). */
async function oneCall(
  t: Tally,
  c: CallerSpec,
  s: ChaosServer,
  nonce: string,
  pending: Set<Promise<unknown>>,
  meddling: Meddling | undefined,
): Promise<void> {
  const { call, limitMs } = c;
  const faults = meddling !== undefined;
  t.calls++;
  const byServer = t.servers[eraOf(s)];
  const byAgent = c.era ? t.agents[c.era] : undefined;
  byServer.calls++;
  if (byAgent) byAgent.calls++;
  const gcs = forcedGcs;
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<'never'>((r) => (timer = setTimeout(() => r('never'), limitMs + 1000)));
  pause.busy++;
  const p = call(s.name, nonce).then(
    (r) => ({ r }),
    (e: unknown) => ({ e }),
  );
  const first = await Promise.race([p, watchdog]);
  pause.busy--;
  clearTimeout(timer);
  if (first === 'never') {
    t.neverEnded++;
    if (byAgent) byAgent.neverEnded++;
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return;
  }
  const ms = performance.now() - t0;
  const failed = 'e' in first || first.r.isError;
  if (failed) {
    t.errors++;
    byServer.errors++;
    const message = 'e' in first ? String(first.e) : first.r.text;
    const cause = classifyError(s, message, meddling?.touched(s.name, t0) ?? []);
    const seen = t.causes.get(cause);
    if (seen) seen.n++;
    else t.causes.set(cause, { n: 1, example: `${s.name} via ${c.id}: ${message}`.slice(0, 300) });
    if (isHealthy(s) && t.healthyErrors.length < 20)
      t.healthyErrors.push(`${s.name}: ${'e' in first ? String(first.e) : first.r.text}`.slice(0, 300));
    if (faults && (s.fault === 'crash' || s.fault === 'exit') && !t.downSince.has(s.name)) t.downSince.set(s.name, t0);
    return;
  }
  if (first.r.text !== `${nonce}@${s.name}`) {
    t.wrong.push(`${s.name} ${nonce} → ${first.r.text}`.slice(0, 200));
    if (byAgent) byAgent.wrong++;
    return;
  }
  t.ok++;
  if (isHealthy(s) && gcs !== forcedGcs) t.gcOverlap++;
  else if (isHealthy(s)) {
    t.healthyMs.push(ms);
    byServer.healthyMs.push(ms);
    if (ms > 1000 && t.slowHealthy.length < 50) t.slowHealthy.push(`${nonce} ${s.name} ${ms.toFixed(0)} ms`);
  }
  const down = t.downSince.get(s.name);
  if (down !== undefined) {
    t.recoveryMs.push(performance.now() - down);
    t.downSince.delete(s.name);
  }
}

/** `callers` loop until `total` calls were made, each on a server drawn from `targets`. */
async function load(
  callers: CallerSpec[],
  targets: () => ChaosServer[],
  total: number,
  t: Tally,
  pending: Set<Promise<unknown>>,
  meddling: Meddling | undefined,
): Promise<void> {
  let made = 0;
  await Promise.all(
    callers.map(async (c, i) => {
      const rnd = prng(SEED * 100 + i);
      for (let n = 0; made < total; n++) {
        await pause.wait();
        if (made >= total) break;
        made++;
        const list = targets();
        const s = list[Math.floor(rnd() * list.length)];
        await oneCall(t, c, s, `${c.id}-${n}`, pending, meddling);
      }
    }),
  );
}

/** Restarts, disables and re-enables faulty servers and edits `.mcp.json` until `stop()` is true. */
async function meddle(
  rig: ChaosRig,
  stop: () => boolean,
  count: { restarts: number; toggles: number; edits: number },
  meddling: Meddling,
) {
  const rnd = prng(SEED + 7);
  const faulty = SERVERS.filter((s) => !isHealthy(s));
  const pick = () => faulty[Math.floor(rnd() * faulty.length)];
  while (!stop()) {
    await new Promise((r) => setTimeout(r, 300 + rnd() * 700));
    await pause.wait();
    if (stop()) break;
    const what = rnd();
    const s = pick();
    pause.busy++;
    if (what < 0.4) {
      count.restarts++;
      const end = meddling.begin(s.name, 'restart');
      await rig.host.restart(s.name).catch(() => undefined);
      end();
    } else if (what < 0.7) {
      count.toggles++;
      const end = meddling.begin(s.name, 'disable');
      await rig.setDisabled(s.name, true);
      await new Promise((r) => setTimeout(r, 200 + rnd() * 500));
      await rig.setDisabled(s.name, false);
      end();
    } else {
      count.edits++;
      // Only a stdio entry's env changes, so only that server restarts.
      const end = s.transport === 'stdio' ? meddling.begin(s.name, 'edit') : () => {};
      await rig.writeConfig(SERVERS, s.transport === 'stdio' ? new Set([s.name]) : new Set());
      end();
    }
    pause.busy--;
  }
}

/** Handles and timers by kind (`process.getActiveResourcesInfo`): a pipe or socket left per restart shows here. */
function handles(): string {
  const by = new Map<string, number>();
  for (const k of process.getActiveResourcesInfo()) by.set(k, (by.get(k) ?? 0) + 1);
  return [...by].map(([k, n]) => `${k} ${n}`).join(', ');
}

/**
 * One memory reading, taken the same way at the first tenth and at the end: callers and meddler
 * paused, the calls under way drained (bounded), then settled readings (chaos-memory.ts).
 * `CHAOS_HEAP_SNAPSHOTS=dir` also writes a heap snapshot there, to compare the two.
 */
async function memoryAt(label: string): Promise<MemoryReading & { drained: boolean; handles: string }> {
  pause.close();
  try {
    const drained = await pause.drained(AGENT_TIMEOUT_MS + 2_000);
    forcedGcs++;
    const reading = await settledMemory();
    const dir = process.env.CHAOS_HEAP_SNAPSHOTS;
    if (dir) console.log(`[chaos] heap snapshot ${writeHeapSnapshot(`${dir}/chaos-${label}.heapsnapshot`)}`);
    return { ...reading, drained, handles: handles() };
  } finally {
    pause.release();
  }
}

/** Every connected server is on its era: a modern fixture that ended up on 2025-11-25 is not in the mix. */
function assertEras(rig: ChaosRig, servers: ChaosServer[]): void {
  for (const s of servers) {
    const state = rig.host.server(s.name)?.state;
    if (state?.kind !== 'connected') continue;
    const want = eraOf(s) === 'modern' ? '2026-07-28' : '2025-11-25';
    if (state.protocolVersion !== want)
      throw new Error(`${s.name} connected on ${state.protocolVersion ?? 'an unknown version'}, not ${want}`);
  }
}

export async function chaos(quick: boolean): Promise<Figure[]> {
  const baseCalls = quick ? 500 : 10_000;
  const chaosCalls = quick ? 3_000 : 50_000;
  const rig = await startChaosRig(SEED);
  const pending = new Set<Promise<unknown>>();
  const healthy = SERVERS.filter(isHealthy);
  let agents: ChaosAgents | undefined;
  const counts = { restarts: 0, toggles: 0, edits: 0 };
  let disposed = false;
  try {
    await rig.writeConfig(healthy);
    await rig.host.whenSettled();
    const agentEra = (i: number): Era => (i < MODERN_AGENTS ? 'modern' : 'legacy');
    agents = await startChaosAgents(
      rig.gatewayUrl,
      rig.gatewayToken,
      Array.from({ length: AGENTS }, (_, i) => ({ name: `chaos-agent-${i}`, era: agentEra(i) })),
    );
    const gatewayAgents = agents;
    const callers: CallerSpec[] = [
      ...Array.from({ length: AGENTS }, (_, i) => ({
        call: gatewayCaller(gatewayAgents, i),
        limitMs: AGENT_TIMEOUT_MS,
        id: `agent${i}-${agentEra(i)}`,
        era: agentEra(i),
      })),
      ...Array.from({ length: HOST_CALLERS }, (_, i) => ({
        call: hostCaller(rig),
        limitMs: HOST_TIMEOUT_MS,
        id: `host${i}`,
      })),
    ];

    // Baseline: the same callers, the healthy servers alone.
    const base = tally();
    await load(callers, () => healthy, baseCalls, base, pending, undefined);
    assertEras(rig, SERVERS.filter(isHealthy));

    // Chaos: every server, a third of the calls on the healthy ones.
    await rig.writeConfig(SERVERS);
    await rig.host.whenSettled();
    assertEras(rig, SERVERS);
    const t = tally();
    // Memory: one settled reading once a tenth of the calls were made, one at the end, both taken
    // the same way (memoryAt: paused, drained, collected, read until two readings agree).
    let early: Promise<Awaited<ReturnType<typeof memoryAt>>> | undefined;
    const sampler = setInterval(() => {
      if (!early && t.calls >= chaosCalls / 10) early = memoryAt('early');
    }, 20);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    let done = false;
    const meddling = new Meddling();
    const meddler = meddle(rig, () => done, counts, meddling);
    const rnd = prng(SEED + 3);
    await load(callers, () => (rnd() < 1 / 3 ? healthy : SERVERS), chaosCalls, t, pending, meddling);
    done = true;
    await meddler;
    clearInterval(sampler);
    const first = await (early ?? memoryAt('early'));
    const last = await memoryAt('late');
    loopDelay.disable();
    const growth = (k: 'heap' | 'rss') => last[k] - first[k];
    const unexplained = [...t.causes].filter(([c]) => c.startsWith('unexplained')).reduce((n, [, v]) => n + v.n, 0);

    // Calls past their watchdog still end before the rig goes (or show as hung forever).
    const lateLimit = new Promise((r) => setTimeout(r, 30_000).unref());
    await Promise.race([Promise.allSettled([...pending]), lateLimit]);
    const stillPending = pending.size;

    await agents.close();
    agents = undefined;
    disposed = true;
    await rig.dispose();
    let left = processesWith(rig.marker);
    // A process the host signalled may take a moment to go: wait (bounded) for the scan to empty.
    for (let i = 0; i < 50 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = processesWith(rig.marker);
    }
    if (left.length) console.error(`[chaos] left:\n  ${left.map(describeProcess).join('\n  ')}`);
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }

    console.log(
      `[chaos] errors by cause:\n  ${[...t.causes]
        .sort((a, b) => b[1].n - a[1].n)
        .map(([c, v]) => `${String(v.n).padStart(5)}  ${c}   e.g. ${v.example}`)
        .join('\n  ')}`,
    );
    for (const [when, m] of [
      ['first tenth', first],
      ['end', last],
    ] as const)
      console.log(
        `[chaos] memory at the ${when}: ${describeReading(m)}${m.drained ? '' : ' (calls still under way)'}; handles: ${m.handles}`,
      );
    if (t.wrong.length) console.error(`[chaos] wrong results:\n  ${t.wrong.slice(0, 10).join('\n  ')}`);
    if (t.healthyErrors.length)
      console.error(`[chaos] errors on healthy servers:\n  ${t.healthyErrors.slice(0, 10).join('\n  ')}`);
    if (process.env.CHAOS_DEBUG) console.error(`[chaos] slow healthy calls:\n  ${t.slowHealthy.join('\n  ')}`);
    if (stillPending) console.error(`[chaos] ${stillPending} calls had not ended 30 s after the run`);
    console.log(
      `[chaos] ${t.calls} calls (${t.ok} ok, ${t.errors} errors), baseline ${base.calls}; ` +
        `${counts.restarts} restarts, ${counts.toggles} disable/enable, ${counts.edits} config edits; left: ${left.join(',') || 'none'}`,
    );

    const b = summarize(base.healthyMs);
    const c = summarize(t.healthyMs);
    const r = summarize(t.recoveryMs);
    const zero = { text: '0', ok: (v: number) => v === 0 };
    const perEra = (era: Era, label: string): Figure[] => {
      const sv = t.servers[era];
      const ag = t.agents[era];
      const calm = summarize(base.servers[era].healthyMs);
      const busy = summarize(sv.healthyMs);
      return [
        figure('chaos', `${label} servers: calls during the chaos (errors: ${sv.errors})`, sv.calls, 'calls'),
        figure('chaos', `${label} healthy servers: p99 during the chaos`, busy.p99, 'ms', {
          name: 'no faults',
          value: calm.p99,
        }),
        figure('chaos', `${label} agents: calls (never ended ${ag.neverEnded}, wrong ${ag.wrong})`, ag.calls, 'calls'),
        figure(
          'chaos',
          `${label} agents: calls never ended or answered wrong`,
          ag.neverEnded + ag.wrong + base.agents[era].neverEnded + base.agents[era].wrong,
          'calls',
          undefined,
          zero,
        ),
      ];
    };
    return [
      figure(
        'chaos',
        `calls made (${AGENTS} gateway agents + ${HOST_CALLERS} host callers)`,
        t.calls + base.calls,
        'calls',
      ),
      figure(
        'chaos',
        'calls that never ended (no answer by timeout + 1 s)',
        t.neverEnded + base.neverEnded,
        'calls',
        undefined,
        zero,
      ),
      figure(
        'chaos',
        'calls answered with a wrong result',
        t.wrong.length + base.wrong.length,
        'calls',
        undefined,
        zero,
      ),
      figure(
        'chaos',
        'errors from the healthy servers during the chaos',
        t.healthyErrors.length,
        'calls',
        undefined,
        zero,
      ),
      figure('chaos', 'server processes left after the run (whole tree)', left.length, 'processes', undefined, zero),
      figure(
        'chaos',
        'errors no fault or restart explains (see the "errors by cause" lines)',
        unexplained,
        'calls',
        undefined,
        zero,
      ),
      ...perEra('legacy', '2025-11-25'),
      ...perEra('modern', '2026-07-28'),
      figure(
        'chaos',
        'host heap growth, settled reading at the first tenth to one at the end',
        growth('heap'),
        'MB',
        undefined,
        {
          text: '< 20 MB',
          ok: (v) => v < 20,
        },
      ),
      figure(
        'chaos',
        'host RSS growth, settled reading at the first tenth to one at the end',
        growth('rss'),
        'MB',
        undefined,
        {
          text: '< 20 MB',
          ok: (v) => v < 20,
        },
      ),
      figure('chaos', 'host heap at the end (settled reading)', last.heap, 'MB', {
        name: 'first tenth',
        value: first.heap,
      }),
      figure('chaos', 'host RSS at the end (settled reading)', last.rss, 'MB', {
        name: 'first tenth',
        value: first.rss,
      }),
      figure('chaos', 'healthy servers: p50 during the chaos', c.p50, 'ms', { name: 'no faults', value: b.p50 }),
      figure(
        'chaos',
        'healthy servers: p99 during the chaos',
        c.p99,
        'ms',
        { name: 'no faults', value: b.p99 },
        ratioAtMost(1.5, 'chaos/calm'),
      ),
      figure('chaos', 'host event loop delay during the chaos, p99', loopDelay.percentile(99) / 1e6, 'ms'),
      figure('chaos', 'host event loop delay during the chaos, max', loopDelay.max / 1e6, 'ms'),
      figure('chaos', `crash to calls succeeding again, p50 (${r.n} recoveries)`, r.p50, 'ms'),
      figure('chaos', 'crash to calls succeeding again, max', Math.max(0, ...t.recoveryMs), 'ms'),
    ];
  } finally {
    await agents?.close().catch(() => undefined);
    if (!disposed) await rig.dispose();
  }
}
