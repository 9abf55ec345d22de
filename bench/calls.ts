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

type Call = () => Promise<unknown>;

async function sequential(call: Call, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out;
}

async function concurrent(call: Call, n: number, inFlight: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await call();
    }),
  );
  return (n / (performance.now() - t0)) * 1000;
}

/** The goals of issue 16, per transport: what the host may add over the bare SDK. */
const GOALS = {
  stdio: { p50: 1.05, p99: 1.5, throughput: 0.95 },
  'in-process': { p50: 1.2, p99: undefined, throughput: undefined },
} as const;

async function measurePair(label: keyof typeof GOALS, host: Call, bare: Call, n: number): Promise<Figure[]> {
  const goal = GOALS[label];
  // Warm both paths (JIT, validator compile) before measuring; interleave to share machine noise.
  await sequential(host, 200);
  await sequential(bare, 200);
  const h = summarize(await sequential(host, n));
  const b = summarize(await sequential(bare, n));
  const ht = await concurrent(host, n, 16);
  const bt = await concurrent(bare, n, 16);
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
  await host.dispose();
  await bareStdio.close();
  await bareInproc.close();
  return out;
}
