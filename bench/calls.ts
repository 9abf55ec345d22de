/**
 * Tool-call overhead: the host's call path (name lookup, argument validation, result
 * conversion, timeouts) against a bare SDK Client on the same server, over stdio and in-process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { figure, ratioAtLeast, ratioAtMost, summarize, type Figure } from './lib/stats.js';
import { rawConnect } from './lib/rawsdk.js';
import { definition, quietHost, tinyServer } from './lib/host.js';
import { startEcho } from './lib/inproc.js';
import { pipeEchoThroughput } from './lib/pipe-echo.js';

type Call = () => Promise<unknown>;

async function sequential(call: Call, n: number, out: number[] = []): Promise<number[]> {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out;
}

/** Milliseconds `n` calls take with `inFlight` of them outstanding at a time. */
async function concurrent(call: Call, n: number, inFlight: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await call();
    }),
  );
  return performance.now() - t0;
}

/**
 * Host and bare SDK take turns in blocks, so a burst of load from elsewhere on the machine lands on
 * both sides rather than on whichever happened to run then (one block each of 5,000 gave ratios
 * that moved by 0.3 between runs on a loaded machine; alternating blocks hold them within a few %).
 */
const BLOCK = 500;

async function sequentialPair(host: Call, bare: Call, n: number): Promise<{ host: number[]; bare: number[] }> {
  const out = { host: [] as number[], bare: [] as number[] };
  for (let done = 0; done < n; done += BLOCK) {
    await sequential(host, Math.min(BLOCK, n - done), out.host);
    await sequential(bare, Math.min(BLOCK, n - done), out.bare);
  }
  return out;
}

/** Calls per second of each side, over alternating blocks of `2 × BLOCK` calls. */
async function throughputPair(host: Call, bare: Call, n: number, inFlight: number): Promise<{ host: number; bare: number }> {
  let hostMs = 0;
  let bareMs = 0;
  for (let done = 0; done < n; done += 2 * BLOCK) {
    const k = Math.min(2 * BLOCK, n - done);
    hostMs += await concurrent(host, k, inFlight);
    bareMs += await concurrent(bare, k, inFlight);
  }
  return { host: (n / hostMs) * 1000, bare: (n / bareMs) * 1000 };
}

/** The goals of issue 16, per transport: what the host may add over the bare SDK. */
const GOALS = {
  stdio: { p50: 1.05, p99: 1.5, throughput: 0.95 },
  'in-process': { p50: 1.2, p99: undefined, throughput: undefined },
} as const;

async function measurePair(label: keyof typeof GOALS, host: Call, bare: Call, n: number): Promise<Figure[]> {
  const goal = GOALS[label];
  // Warm both paths (JIT, validator compile) before measuring.
  await sequential(host, 200);
  await sequential(bare, 200);
  const seq = await sequentialPair(host, bare, n);
  const h = summarize(seq.host);
  const b = summarize(seq.bare);
  const { host: ht, bare: bt } = await throughputPair(host, bare, n, 16);
  return [
    figure('calls', `${label}: p50 sequential`, h.p50, 'ms', { name: 'bare SDK', value: b.p50 }, ratioAtMost(goal.p50)),
    figure('calls', `${label}: p99 sequential`, h.p99, 'ms', { name: 'bare SDK', value: b.p99 }, goal.p99 ? ratioAtMost(goal.p99) : undefined),
    figure('calls', `${label}: throughput, 16 in flight`, ht, 'calls/s', { name: 'bare SDK', value: bt }, goal.throughput ? ratioAtLeast(goal.throughput) : undefined),
  ];
}

export async function calls(quick: boolean): Promise<Figure[]> {
  const n = quick ? 100 : 5000;
  const out: Figure[] = [];

  const host = quietHost();
  host.setDefinitions([
    tinyServer('stdio'),
    definition('inproc', { type: 'inprocess', id: 'bench-echo', start: (t) => startEcho(t) }),
  ]);
  await host.whenSettled();
  const bareStdio = await rawConnect();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await startEcho(serverSide);
  const bareInproc = new Client({ name: 'bench-baseline', version: '1.0.0' });
  await bareInproc.connect(clientSide);

  const args = { text: 'hello' };
  out.push(
    ...(await measurePair(
      'stdio',
      () => host.callTool('stdio', 'echo', args),
      () => bareStdio.callTool({ name: 'echo', arguments: args }),
      n,
    )),
  );
  out.push(
    ...(await measurePair(
      'in-process',
      () => host.callTool('inproc', 'echo', args),
      () => bareInproc.callTool({ name: 'echo', arguments: args }),
      n,
    )),
  );
  // What the stdio throughput ratio is held against: the same ping-pong without MCP, its child in
  // its own session (as the host's servers are) against one in ours (as the bare SDK's is).
  const pipe = await pipeEchoThroughput(quick ? 1000 : 20_000);
  out.push(figure('calls', 'stdio floor: pipe echo, child in own session, 16 in flight', pipe.ownSession, 'trips/s', { name: 'same session', value: pipe.sameSession }));
  await host.dispose();
  await bareStdio.close();
  await bareInproc.close();
  return out;
}
