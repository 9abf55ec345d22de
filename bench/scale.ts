/**
 * Scale: listing and wrapping 2,000 tools, and host heap per connected server with 50 × 100
 * tools, each against the bare SDK doing the same listing.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { figure, ratioAtMost, type Figure } from './lib/stats.js';
import { rawConnect } from './lib/rawsdk.js';
import { quietHost, tinyServer } from './lib/host.js';

function heapInChild(mode: 'bare' | 'host', servers: number, tools: number): number {
  // Built beside run.cjs by scripts/bench.mjs.
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', join(__dirname, 'heap-child.cjs'), mode, String(servers), String(tools)],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`heap of ${mode} failed: ${r.stderr}`);
  return Number(r.stdout);
}

function heapMb(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function untilConnected(host: ReturnType<typeof quietHost>, n: number): Promise<void> {
  await host.whenSettled();
  const bad = host.servers().filter((s) => s.state.kind !== 'connected');
  if (bad.length || host.servers().length !== n)
    throw new Error(`not all connected: ${bad.map((s) => `${s.name}:${s.state.kind}`).join(', ')}`);
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
  out.push(
    figure(
      'scale',
      `${bigTools} tools: connect + list + wrap`,
      hostMs,
      'ms',
      { name: 'bare SDK connect + list', value: bareMs },
      ratioAtMost(1.15),
    ),
  );
  out.push(figure('scale', `${bigTools} tools: host heap held`, h1 - h0, 'MB'));
  await host.dispose();

  const servers = quick ? 5 : 50;
  const perServer = 100;
  // Each side in a fresh process (the figures repeat within 1-2% run to run, so one each).
  const bareMb = heapInChild('bare', servers, perServer);
  const hostMb = heapInChild('host', servers, perServer);
  out.push(
    figure(
      'scale',
      `${servers} servers × ${perServer} tools: heap per connected server`,
      hostMb,
      'MB',
      { name: 'bare SDK client + its tool list', value: bareMb },
      ratioAtMost(1.2),
    ),
  );
  return out;
}
