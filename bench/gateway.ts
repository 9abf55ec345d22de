/**
 * An agent's tool call through the gateway against the same call straight to the server, each pair
 * over the same agent-side transport, so the ratio is the gateway's hop and not HTTP against stdio:
 * - HTTP: an SDK Client over Streamable HTTP → gateway in its own process, as the editor's extension
 *   host is (lib/gateway-over-http.ts) → host → the tiny server over stdio, against an SDK Client over
 *   Streamable HTTP → the same tiny server served over the SDK's HTTP transport in its own process
 *   (lib/sdk-over-http.ts): the agent's client never shares a thread with what serves it. The same
 *   gateway in the bench process, beside the agent, is shown against the floor: there the gateway's
 *   work and the agent client's take turns on one thread, which neither an editor nor the direct row has.
 * - serve: an SDK Client that launched `mcp-host serve` over stdio → host → the tiny stdio server,
 *   against an SDK Client that launched the tiny server itself over stdio; and, as its floor, the
 *   least any SDK stdio gateway costs: a bare SDK Server relaying to an SDK Client (fixtures/sdk-relay.mjs);
 *   under it the physical floors, with no MCP library: a process that forwards bytes only
 *   (fixtures/pipe-relay.mjs), and one that parses, re-ids, renames and re-serialises each line
 *   (fixtures/json-relay.mjs), the least a relay that renames tools does.
 * Same tool, same arguments; every side takes turns in blocks, so load from elsewhere lands on all.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway, GatewayHttpServer } from '../src/core/gateway/index.js';
import { nullLogger } from '../src/core/ports.js';
import { figure, ratioAtLeast, ratioAtMost, summarize, type Figure } from './lib/stats.js';
import { quietHost, tinyServer } from './lib/host.js';
import { rawConnect } from './lib/rawsdk.js';
import { sdkOverHttp } from './lib/sdk-over-http.js';
import { gatewayAgent } from './lib/gateway-over-http.js';
import { JSON_RELAY, PIPE_RELAY, procCpuMs, relayAgent, serveAgent } from './lib/serve-over-stdio.js';
import { mixedRun, type PathShare } from './lib/mixed-run.js';

type Call = () => Promise<unknown>;

async function timed(call: Call, n: number, out: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
}

/** `n` calls with `inFlight` at a time; adds the calls and the milliseconds they took to `into`. */
async function burst(call: Call, n: number, inFlight: number, into: { calls: number; ms: number }): Promise<void> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await call();
    }),
  );
  into.ms += performance.now() - t0;
  into.calls += n;
}

interface Side {
  call: Call;
  samples: number[];
  rate: { calls: number; ms: number };
  /** The processes between agent and server, if it has any of its own: their CPU time is counted per block. */
  pids?: number[];
  cpu: { calls: number; ms: number };
}

function side(call: Call, pids?: number[]): Side {
  return { call, samples: [], rate: { calls: 0, ms: 0 }, cpu: { calls: 0, ms: 0 }, ...(pids ? { pids } : {}) };
}

/** Runs one block of `s` and adds its relay process's CPU time to `s.cpu`. */
async function counted(s: Side, calls: number, block: () => Promise<void>): Promise<void> {
  const before = s.pids ? procCpuMs(s.pids) : undefined;
  await block();
  const after = s.pids ? procCpuMs(s.pids) : undefined;
  if (before === undefined || after === undefined) return;
  s.cpu.ms += after - before;
  s.cpu.calls += calls;
}

/**
 * CPU time of the process between agent and server per call, against a floor's: what a loaded
 * machine changes least (latency there is mostly waiting for a core). /proc counts in 10 ms ticks.
 */
function cpuPerCall(what: string, via: Side, bare: Side, bareName: string): Figure[] {
  if (via.cpu.calls === 0 || bare.cpu.calls === 0) return [];
  const per = (s: Side): number => (s.cpu.ms / s.cpu.calls) * 1000;
  return [
    figure('gateway', `relay process CPU per call via ${what}`, per(via), 'µs', {
      name: bareName,
      value: per(bare),
    }),
  ];
}

function pair(what: string, via: Side, direct: Side, directName: string): Figure[] {
  const g = summarize(via.samples);
  const d = summarize(direct.samples);
  const perSecond = (s: Side): number => (s.rate.calls / s.rate.ms) * 1000;
  return [
    figure(
      'gateway',
      `agent call via ${what} p50`,
      g.p50,
      'ms',
      { name: directName, value: d.p50 },
      ratioAtMost(1.3, 'gateway/direct'),
    ),
    figure('gateway', `agent call via ${what} p99`, g.p99, 'ms', { name: directName, value: d.p99 }),
    figure(
      'gateway',
      `agent calls/s via ${what} (8 in flight)`,
      perSecond(via),
      'calls/s',
      { name: directName, value: perSecond(direct) },
      ratioAtLeast(0.8, 'gateway/direct'),
    ),
  ];
}

/** The same call against another way of making it (the floor: the part above it is ours); no target. */
function floor(what: string, via: Side, bare: Side, bareName: string, how = 'against the floor'): Figure[] {
  const perSecond = (s: Side): number => (s.rate.calls / s.rate.ms) * 1000;
  return [
    figure('gateway', `agent call via ${what} p50, ${how}`, summarize(via.samples).p50, 'ms', {
      name: bareName,
      value: summarize(bare.samples).p50,
    }),
    figure('gateway', `agent calls/s via ${what}, ${how}`, perSecond(via), 'calls/s', {
      name: bareName,
      value: perSecond(bare),
    }),
  ];
}

/** The fast and the full path's share of a mixed run's requests (lib/mixed-run.ts), agents' side and servers' side. */
async function mixed(rounds: number): Promise<Figure[]> {
  const r = await mixedRun(rounds);
  const pct = (s: PathShare): number => Math.round((s.fast / Math.max(1, s.fast + s.full)) * 1000) / 10;
  console.log(`[gateway] mixed run, servers' requests by path: ${JSON.stringify(r.byMethod)}`);
  return [
    figure(
      'gateway',
      `mixed run: agents' forwarded requests on the fast path (${r.agents.fast} of ${r.agents.fast + r.agents.full})`,
      pct(r.agents),
      '%',
    ),
    figure(
      'gateway',
      `mixed run: requests to servers sent as frames, from the trace (${r.upstream.fast} of ${r.upstream.fast + r.upstream.full})`,
      pct(r.upstream),
      '%',
    ),
  ];
}

export async function gateway(quick: boolean): Promise<Figure[]> {
  const blocks = quick ? 2 : 10;
  const block = quick ? 20 : 200;
  const host = quietHost();
  host.setDefinitions([tinyServer('tiny')]);
  await host.whenSettled();
  const gw = new Gateway({ host, logger: nullLogger });
  const http = await GatewayHttpServer.start({ gateway: gw, logger: nullLogger });
  const agent = new Client({ name: 'bench-agent', version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { Authorization: `Bearer ${http.token}` } },
    }),
  );
  const own = await gatewayAgent();
  const ownFull = await gatewayAgent({ fullPath: true });
  const overHttp = await sdkOverHttp();
  const served = await serveAgent();
  const servedOwn = await serveAgent({ own: true });
  const servedFull = await serveAgent({ own: true, fullPath: true });
  const stdio = await rawConnect();
  const relay = await relayAgent();
  const pipeRelay = await relayAgent(PIPE_RELAY);
  const jsonRelay = await relayAgent(JSON_RELAY);
  const args = { text: 'hello' };
  const viaHttp = side(() => own.client.callTool({ name: 'tiny__echo', arguments: args }));
  const inBench = side(() => agent.callTool({ name: 'tiny__echo', arguments: args }));
  const directHttp = side(() => overHttp.echo('hello'));
  const viaServe = side(() => served.client.callTool({ name: 'tiny__echo', arguments: args }), served.pids);
  const viaOwn = side(() => servedOwn.client.callTool({ name: 'tiny__echo', arguments: args }), servedOwn.pids);
  const viaFull = side(() => servedFull.client.callTool({ name: 'tiny__echo', arguments: args }), servedFull.pids);
  const viaHttpFull = side(() => ownFull.client.callTool({ name: 'tiny__echo', arguments: args }));
  const directStdio = side(() => stdio.callTool({ name: 'echo', arguments: args }));
  const viaRelay = side(() => relay.client.callTool({ name: 'echo', arguments: args }), relay.pids);
  const viaPipe = side(() => pipeRelay.client.callTool({ name: 'echo', arguments: args }), pipeRelay.pids);
  const viaJson = side(() => jsonRelay.client.callTool({ name: 'tiny__echo', arguments: args }), jsonRelay.pids);
  const all = [
    viaHttp,
    viaHttpFull,
    directHttp,
    inBench,
    viaServe,
    viaOwn,
    viaFull,
    directStdio,
    viaRelay,
    viaPipe,
    viaJson,
  ];
  try {
    // Warm-up: every side's JIT (and the child processes') before anything is kept.
    for (const s of all) await timed(s.call, block, []);
    for (let i = 0; i < blocks; i++)
      for (const s of all) await counted(s, block, () => timed(s.call, block, s.samples));
    for (let i = 0; i < blocks; i++)
      for (const s of all) await counted(s, block, () => burst(s.call, block, 8, s.rate));
    return [
      ...pair('HTTP gateway', viaHttp, directHttp, 'straight to the server over the same HTTP transport'),
      ...floor('HTTP gateway', inBench, viaHttp, 'the gateway in a process of its own', 'in the agent’s process'),
      ...pair('mcp-host serve (stdio)', viaServe, directStdio, 'straight to the server over stdio'),
      ...floor('mcp-host serve (stdio)', viaServe, viaRelay, 'bare SDK relay over stdio (the floor)'),
      ...floor(
        'mcp-host serve (stdio)',
        viaServe,
        viaJson,
        'a JSON relay (parse, re-id, rename)',
        'against the JSON relay',
      ),
      ...floor(
        'mcp-host serve (stdio)',
        viaServe,
        viaPipe,
        'a byte relay (forwards, reads nothing)',
        'against the byte relay',
      ),
      ...floor('a byte relay (stdio)', viaPipe, directStdio, 'straight to the server over stdio', 'against direct'),
      ...floor('a JSON relay (stdio)', viaJson, directStdio, 'straight to the server over stdio', 'against direct'),
      ...floor('bare SDK relay (stdio)', viaRelay, directStdio, 'straight to the server over stdio', 'against direct'),
      // --own-servers: the servers in the serve process, no shared gateway behind it.
      ...floor(
        'mcp-host serve --own-servers (stdio)',
        viaOwn,
        viaJson,
        'a JSON relay (parse, re-id, rename)',
        'against the JSON relay',
      ),
      ...floor('mcp-host serve (stdio), shared', viaServe, viaOwn, 'serve --own-servers', 'against --own-servers'),
      ...cpuPerCall('mcp-host serve --own-servers', viaOwn, viaJson, 'JSON relay'),
      // The fast path (src/core/gateway/fast-path.ts) against the same gateway with it off, same run.
      ...floor(
        'mcp-host serve --own-servers (stdio)',
        viaOwn,
        viaFull,
        'the same with the fast path off (full path)',
        'fast path against the full path',
      ),
      ...cpuPerCall('mcp-host serve --own-servers, full path', viaFull, viaJson, 'JSON relay'),
      ...floor(
        'HTTP gateway',
        viaHttp,
        viaHttpFull,
        'the same with the fast path off',
        'fast path against the full path',
      ),
      ...cpuPerCall('mcp-host serve', viaServe, viaRelay, 'bare SDK relay'),
      ...cpuPerCall('mcp-host serve', viaServe, viaJson, 'JSON relay'),
      ...cpuPerCall('bare SDK relay', viaRelay, viaJson, 'JSON relay'),
      ...cpuPerCall('JSON relay', viaJson, viaPipe, 'byte relay'),
      ...(await mixed(quick ? 5 : 200)),
    ];
  } finally {
    await agent.close();
    await own.close();
    await overHttp.close();
    await served.close();
    await servedOwn.close();
    await servedFull.close();
    await ownFull.close();
    await stdio.close();
    await relay.close();
    await pipeRelay.close();
    await jsonRelay.close();
    await http.dispose();
    await gw.dispose();
    await host.dispose();
  }
}
