/**
 * Scale: listing and wrapping 2,000 tools, and host heap per connected server with 50 × 100
 * tools, each against the bare SDK doing the same listing.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { figure, ratioAtMost, type Figure } from './lib/stats.js';
import { rawConnect } from './lib/rawsdk.js';
import { quietHost, tinyServer } from './lib/host.js';

function heapMb(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function untilConnected(host: ReturnType<typeof quietHost>, n: number): Promise<void> {
  await host.whenSettled();
  const bad = host.servers().filter((s) => s.state.kind !== 'connected');
  if (bad.length || host.servers().length !== n) throw new Error(`not all connected: ${bad.map((s) => `${s.name}:${s.state.kind}`).join(', ')}`);
}

export async function scale(quick: boolean): Promise<Figure[]> {
  const out: Figure[] = [];
  const bigTools = quick ? 200 : 2000;

  // Bare SDK: connect, list every page of tools.
  let t = performance.now();
  const bare = await rawConnect({ TOOLS: String(bigTools) });
  const listed = await bare.listTools();
  const bareMs = performance.now() - t;
  await bare.close();
  if (listed.tools.length !== bigTools) throw new Error(`bare listed ${listed.tools.length}`);

  const h0 = heapMb();
  t = performance.now();
  const host = quietHost();
  host.setDefinitions([tinyServer('big', { TOOLS: String(bigTools) })]);
  await untilConnected(host, 1);
  const hostMs = performance.now() - t;
  const tools = host.server('big')!.tools.length;
  if (tools !== bigTools) throw new Error(`host wrapped ${tools}`);
  const h1 = heapMb();
  out.push(figure('scale', `${bigTools} tools: connect + list + wrap`, hostMs, 'ms', { name: 'bare SDK connect + list', value: bareMs }, ratioAtMost(1.15)));
  out.push(figure('scale', `${bigTools} tools: host heap held`, h1 - h0, 'MB'));
  await host.dispose();

  const servers = quick ? 5 : 50;
  const perServer = 100;
  const b0 = heapMb();
  const clients: Client[] = [];
  for (let i = 0; i < servers; i += 10) {
    clients.push(...(await Promise.all(Array.from({ length: Math.min(10, servers - i) }, () => rawConnect({ TOOLS: String(perServer) })))));
  }
  const lists = await Promise.all(clients.map((c) => c.listTools()));
  const b1 = heapMb();
  const bareHeap = (b1 - b0) / servers;
  await Promise.all(clients.map((c) => c.close()));
  lists.length = 0;

  const m0 = heapMb();
  const many = quietHost();
  many.setDefinitions(Array.from({ length: servers }, (_, i) => tinyServer(`m${i}`, { TOOLS: String(perServer) })));
  await untilConnected(many, servers);
  const m1 = heapMb();
  out.push(
    figure('scale', `${servers} servers × ${perServer} tools: heap per connected server`, (m1 - m0) / servers, 'MB', { name: 'bare SDK client + its tool list', value: bareHeap }, ratioAtMost(1.2)),
  );
  await many.dispose();
  return out;
}
