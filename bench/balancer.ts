/**
 * The team gateway on several processes (issue 39): three `mcp-host serve --http` processes (the bench
 * build of the CLI) behind HAProxy running deploy/haproxy.cfg, sharing a real redis-server when one is
 * installed, with agents over loopback, half on 2025-11-25 (sessions) and half on 2026-07-28 (stateless),
 * all signed in with tokens of the real oidc-provider the tests use. In order:
 *   1. calm: every agent makes its calls against one process with no balancer (the baseline), then the
 *      same through HAProxy: p50/p99 side by side, and Redis round trips per call;
 *   2. listen: 2026-07-28 agents hold `subscriptions/listen` streams (HAProxy spreads them over the
 *      processes); a tool added on one process's server must reach every stream (through Redis);
 *   3. faults: every agent calls again while one process is SIGKILLed (a third of the way) and another
 *      drained by SIGTERM (two thirds): calls that never ended, answered wrong, errors the kill explains
 *      and those nothing explains, and the 2025 sessions started anew.
 * Bounded: a fixed count of calls per agent and a time budget per phase. Quick: 10 agents.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onPath } from '../test/support/system-tool.js';
import { startRedis, type RunningRedis } from '../test/support/redis-server.js';
import { startTeamIdp } from '../test/integration/gateway/service/team-idp.js';
import {
  freePort,
  REPO,
  startGateway,
  startHaproxy,
  writeGatewayConfig,
  type Balancer,
  type GatewayProcess,
} from '../test/integration/gateway/service/fleet.js';
import { TeamAgent } from '../test/integration/gateway/service/fleet-agents.js';
import { callRound, connectAll, Tally } from './lib/balancer-calls.js';
import { BENCH_CLI } from './lib/serve-over-stdio.js';
import { figure, summarize, type Figure } from './lib/stats.js';

const G = 'balancer';
const STDIO = join(REPO, 'test', 'fixtures', 'servers', 'stdio-server.mjs');
const zero = { text: '0', ok: (v: number) => v === 0 };

interface Sizes {
  agents: number;
  calmCalls: number;
  faultCalls: number;
  listeners: number;
  changes: number;
}

/** Redis round trips of the processes so far, from their `/healthz` (core/cluster/). */
async function roundTrips(gws: GatewayProcess[]): Promise<number> {
  let n = 0;
  for (const g of gws) {
    if (g.proc.exitCode !== null || g.proc.signalCode !== null) continue;
    const h = (await (await fetch(`${g.origin}/healthz`)).json()) as { shared?: { redisRoundTrips?: number } };
    n += h.shared?.redisRoundTrips ?? 0;
  }
  return n;
}

function agentsFor(url: string, token: string, n: number): TeamAgent[] {
  return Array.from(
    { length: n },
    (_, i) => new TeamAgent(url, token, i % 2 === 0 ? '2025-11-25' : '2026-07-28', `bench-agent-${i}`),
  );
}

/** Phase 2: every listener must hear each tool added on whichever process the adding call reached. */
async function listenAcross(agents: TeamAgent[], s: Sizes): Promise<{ delivered: number; expected: number }> {
  const modern = agents.filter((a) => a.era === '2026-07-28');
  const listeners = modern.slice(0, s.listeners);
  const heard = listeners.map(() => 0);
  const subs = await Promise.all(
    listeners.map(async (a, i) => {
      a.sdk!.setNotificationHandler('notifications/tools/list_changed', () => void heard[i]!++);
      return a.sdk!.listen({ toolsListChanged: true });
    }),
  );
  const adder = modern[modern.length - 1]!;
  for (let c = 0; c < s.changes; c++) {
    await adder.call('s__add_tool', { name: `added_${c}_${Date.now()}` });
    const deadline = performance.now() + 5000;
    while (heard.some((h) => h <= c) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }
  await Promise.all(subs.map((sub) => sub.close().catch(() => undefined)));
  return { delivered: heard.reduce((n, h) => n + Math.min(h, s.changes), 0), expected: listeners.length * s.changes };
}

/** Phase 3: calls while gw1 is killed and gw2 drained; the drained one must exit 0. */
async function faults(agents: TeamAgent[], gws: GatewayProcess[], lb: Balancer, s: Sizes): Promise<Tally> {
  const tally = new Tally();
  let killed = false;
  let drained = false;
  // One fault at a time: the drain waits until HAProxy has taken the killed process out.
  let killSeen = false;
  await callRound(agents, s.faultCalls, tally, 120_000, (ended, total) => {
    if (!killed && ended >= total / 3) {
      killed = true;
      tally.killedAt = performance.now();
      gws[0]!.proc.kill('SIGKILL');
      void gws[0]!.exited.then(() => (tally.deadAt = performance.now()));
      void lb.until('DOWN', ['gw1']).then(() => (killSeen = true));
    }
    if (!drained && killSeen && ended >= (2 * total) / 3) {
      drained = true;
      tally.drainedAt = performance.now();
      gws[1]!.proc.kill('SIGTERM');
    }
  });
  if (!drained) throw new Error('the calls ended before the drain: more calls per agent');
  const code = await gws[1]!.exited;
  if (code !== 0) throw new Error(`the drained process exited ${code}: ${gws[1]!.stderr().slice(-2000)}`);
  return tally;
}

function figures(
  s: Sizes,
  calm: { direct: Tally; balanced: Tally; tripsPerCall: number | undefined },
  listen: { delivered: number; expected: number } | undefined,
  fault: Tally,
  agents: TeamAgent[],
): Figure[] {
  const d = summarize(calm.direct.latencies);
  const b = summarize(calm.balanced.latencies);
  const causes = fault.causes();
  for (const f of causes.unexplained.slice(0, 5))
    console.log(`[balancer] unexplained error: ${f.why} (${fault.when(f)})`);
  const restarted = agents.reduce((n, a) => n + Math.max(0, a.sessions - 1), 0);
  const base = (name: string, value: number): { name: string; value: number } => ({ name, value });
  const out = [
    figure(
      G,
      `p50 call, ${s.agents} agents through HAProxy to 3 processes`,
      b.p50,
      'ms',
      base('one process, no balancer', d.p50),
    ),
    figure(
      G,
      `p99 call, ${s.agents} agents through HAProxy to 3 processes`,
      b.p99,
      'ms',
      base('one process, no balancer', d.p99),
    ),
    figure(
      G,
      'calm calls not answered right (both set-ups)',
      calm.direct.made + calm.balanced.made - calm.direct.ok - calm.balanced.ok,
      'calls',
      undefined,
      zero,
    ),
    figure(G, `calls during a kill and a drain (${s.agents / 2} agents per era)`, fault.made, 'calls'),
    figure(G, 'calls that never ended (no answer by timeout + 1 s)', fault.neverEnded, 'calls', undefined, zero),
    figure(G, 'calls answered with a wrong result', fault.wrong, 'calls', undefined, zero),
    figure(G, 'errors the kill explains (in flight when the process died)', causes.kill, 'calls'),
    figure(G, 'errors nothing explains (the drain included)', causes.unexplained.length, 'calls', undefined, zero),
    figure(G, '2025-11-25 sessions started anew (404 after the kill or the drain)', restarted, 'sessions'),
  ];
  if (calm.tripsPerCall !== undefined)
    out.push(figure(G, 'Redis round trips per call (calm, through HAProxy)', calm.tripsPerCall, 'trips'));
  if (listen)
    out.push(
      figure(
        G,
        `subscriptions/listen events delivered across processes (${listen.expected} expected)`,
        (100 * listen.delivered) / listen.expected,
        '%',
        undefined,
        {
          text: '100 %',
          ok: (v) => v === 100,
        },
      ),
    );
  return out;
}

export async function balancer(quick: boolean): Promise<Figure[]> {
  if (!onPath('haproxy')) {
    console.log('[balancer] skipped: needs haproxy (apt-get install haproxy)');
    return [];
  }
  const s: Sizes = quick
    ? { agents: 10, calmCalls: 3, faultCalls: 20, listeners: 3, changes: 2 }
    : { agents: 200, calmCalls: 10, faultCalls: 30, listeners: 30, changes: 5 };
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-balancer-'));
  const idp = await startTeamIdp();
  const redis: RunningRedis | undefined = onPath('redis-server') ? await startRedis() : undefined;
  if (!redis) console.log('[balancer] no redis-server: the processes share nothing (apt-get install redis-server)');
  const gws: GatewayProcess[] = [];
  let lb: Awaited<ReturnType<typeof startHaproxy>> | undefined;
  const agents: TeamAgent[] = [];
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const config = writeGatewayConfig(join(dir, 'gateway.json'), {
      issuer: idp.issuer,
      resource: url,
      servers: { s: { command: process.execPath, args: [STDIO, '--name', 's'] } },
      // A rate limit per person, as a team would run one, set far above what the bench makes: every call
      // takes from its bucket in Redis, so the round trips per call are those of a real configuration.
      ...(redis
        ? {
            extra: {
              redis: { url: redis.url, keyPrefix: 'bench:' },
              rateLimit: { callsPerMinute: 1_000_000, burst: 1_000_000 },
            },
          }
        : {}),
    });
    gws.push(
      ...(await Promise.all(
        ['gw1', 'gw2', 'gw3', 'alone'].map((name) =>
          startGateway({ cli: BENCH_CLI, name, dir: join(dir, name), config }),
        ),
      )),
    );
    const alone = gws[3]!;
    lb = await startHaproxy({ port, gateways: gws.slice(0, 3).map((g) => g.address) });
    const token = await idp.tokenFor('alice', url);

    const direct = new Tally();
    const directAgents = agentsFor(`${alone.origin}/mcp`, token, s.agents);
    await connectAll(directAgents);
    await callRound(directAgents, s.calmCalls, direct, 120_000);
    await Promise.all(directAgents.map((a) => a.close()));
    alone.proc.kill('SIGTERM');
    await alone.exited;

    agents.push(...agentsFor(url, token, s.agents));
    await connectAll(agents);
    const balanced = new Tally();
    const trips0 = await roundTrips(gws.slice(0, 3));
    await callRound(agents, s.calmCalls, balanced, 120_000);
    const tripsPerCall = redis
      ? ((await roundTrips(gws.slice(0, 3))) - trips0) / Math.max(1, balanced.made)
      : undefined;
    const listen = redis ? await listenAcross(agents, s) : undefined;
    const fault = await faults(agents, gws, lb, s);
    if (process.env.BENCH_HAPROXY_LOG)
      console.log(
        lb
          .log()
          .split('\n')
          .filter((l) => !/ - - ---- /.test(l) || / 5\d\d /.test(l))
          .join('\n'),
      );
    return figures(s, { direct, balanced, tripsPerCall }, listen, fault, agents);
  } finally {
    await Promise.all(agents.map((a) => a.close()));
    await lb?.stop();
    for (const g of gws) if (g.proc.exitCode === null && g.proc.signalCode === null) g.proc.kill('SIGKILL');
    await Promise.all(gws.map((g) => g.exited));
    await redis?.stop();
    await idp.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
