/**
 * An agent's tool call through the gateway (an SDK Client over Streamable HTTP → gateway → host →
 * the stdio server) against the same call straight to the server (an SDK Client that launched it
 * over stdio, as an agent without the gateway would). Same tiny server, same tool, same arguments;
 * the two sides take turns in blocks so load from elsewhere lands on both. A third side, the bare SDK
 * over the same HTTP transport (lib/sdk-over-http.ts), is the floor: it says which part is ours.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway, GatewayHttpServer } from '../src/core/gateway/index.js';
import { nullLogger } from '../src/core/ports.js';
import { figure, ratioAtLeast, ratioAtMost, summarize, type Figure } from './lib/stats.js';
import { quietHost, tinyServer } from './lib/host.js';
import { rawConnect } from './lib/rawsdk.js';
import { sdkOverHttp } from './lib/sdk-over-http.js';

type Call = () => Promise<unknown>;

async function timed(call: Call, n: number, out: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
}

async function throughput(call: Call, n: number, inFlight: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await call();
    }),
  );
  return (n / (performance.now() - t0)) * 1000;
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
  const bare = await rawConnect();
  const floor = await sdkOverHttp();
  const viaGateway: Call = () => agent.callTool({ name: 'tiny__echo', arguments: { text: 'hello' } });
  const direct: Call = () => bare.callTool({ name: 'echo', arguments: { text: 'hello' } });
  const overHttp: Call = () => floor.echo('hello');
  try {
    await timed(viaGateway, block, []);
    await timed(direct, block, []);
    await timed(overHttp, block, []);
    const g: number[] = [];
    const d: number[] = [];
    const f: number[] = [];
    for (let i = 0; i < blocks; i++) {
      await timed(viaGateway, block, g);
      await timed(direct, block, d);
      await timed(overHttp, block, f);
    }
    const sg = summarize(g);
    const sd = summarize(d);
    const sf = summarize(f);
    const n = blocks * block;
    const tg = await throughput(viaGateway, n, 8);
    const td = await throughput(direct, n, 8);
    const tf = await throughput(overHttp, n, 8);
    const what = 'straight to the server (stdio)';
    const floorName = 'bare SDK McpServer over the same HTTP transport';
    return [
      figure(
        'gateway',
        'agent call via HTTP gateway p50',
        sg.p50,
        'ms',
        { name: what, value: sd.p50 },
        ratioAtMost(1.3, 'gateway/direct'),
      ),
      figure('gateway', 'agent call via HTTP gateway p99', sg.p99, 'ms', { name: what, value: sd.p99 }),
      figure('gateway', 'agent call via HTTP gateway p50, against the floor', sg.p50, 'ms', {
        name: floorName,
        value: sf.p50,
      }),
      figure(
        'gateway',
        'agent calls/s via HTTP gateway (8 in flight)',
        tg,
        'calls/s',
        { name: what, value: td },
        ratioAtLeast(0.8, 'gateway/direct'),
      ),
      figure('gateway', 'agent calls/s via HTTP gateway, against the floor', tg, 'calls/s', {
        name: floorName,
        value: tf,
      }),
    ];
  } finally {
    await agent.close();
    await bare.close();
    await floor.close();
    await http.dispose();
    await gw.dispose();
    await host.dispose();
  }
}
