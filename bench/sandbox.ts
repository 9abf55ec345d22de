/**
 * A stdio server under the sandbox (bubblewrap + the shared filtering proxy) against the same
 * server unsandboxed: connect time and sequential call p50, rounds alternating so machine load
 * hits both alike. The first sandboxed connect of a process also starts the shared proxy; it is
 * reported on its own row, the steady state is what each later server pays.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planSandbox } from '../src/core/config/sandbox-plan.js';
import { sharedSandboxRuntime } from '../src/core/sandbox/runtime.js';
import type { StdioServerConfig } from '../src/core/config/types.js';
import { figure, ratioAtMost, summarize, type Figure } from './lib/stats.js';
import { quietHost, tinyServer } from './lib/host.js';

/** The workspace folder a sandboxed server may write: a small one, as a project's would be. */
let workspace = tmpdir();

async function connectAndCall(name: string, sandboxed: boolean, calls: number) {
  const host = quietHost();
  const def = tinyServer(name);
  if (sandboxed) {
    const { plan } = planSandbox(def.config as StdioServerConfig, { folders: [workspace] }, 'config');
    def.admission = { run: true, sandbox: plan };
  }
  const t0 = performance.now();
  host.setDefinitions([def]);
  await host.whenSettled();
  const connect = performance.now() - t0;
  const state = host.server(name)?.state;
  if (state?.kind !== 'connected') throw new Error(`${name} did not connect: ${JSON.stringify(state)}`);
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const c0 = performance.now();
    await host.callTool(name, 'echo', { text: 'x' });
    samples.push(performance.now() - c0);
  }
  await host.dispose();
  return { connect, samples };
}

export async function sandbox(quick: boolean): Promise<Figure[]> {
  const runtime = sharedSandboxRuntime();
  const available = await runtime.check();
  if (!available.ok) throw new Error(`the sandbox cannot run here: ${available.message}`);
  workspace = mkdtempSync(join(tmpdir(), 'mcp-bench-sandbox-ws-'));
  const rounds = quick ? 3 : 7;
  const calls = quick ? 200 : 1000;
  const cold = await connectAndCall('cold', true, 1);
  const plain: number[] = [];
  const boxed: number[] = [];
  const plainCalls: number[] = [];
  const boxedCalls: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const a = await connectAndCall(`plain${r}`, false, calls);
    const b = await connectAndCall(`boxed${r}`, true, calls);
    plain.push(a.connect);
    boxed.push(b.connect);
    plainCalls.push(...a.samples);
    boxedCalls.push(...b.samples);
  }
  await runtime.dispose();
  rmSync(workspace, { recursive: true, force: true });
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  const plainMs = median(plain);
  return [
    figure('sandbox', 'first sandboxed connect (starts the shared proxy)', cold.connect, 'ms', {
      name: 'unsandboxed',
      value: plainMs,
    }),
    figure(
      'sandbox',
      'connect, sandboxed (median)',
      median(boxed),
      'ms',
      { name: 'unsandboxed', value: plainMs },
      { text: '≤ unsandboxed + 150 ms', ok: (v) => v - plainMs <= 150 },
    ),
    figure(
      'sandbox',
      'call p50, sandboxed',
      summarize(boxedCalls).p50,
      'ms',
      { name: 'unsandboxed', value: summarize(plainCalls).p50 },
      ratioAtMost(1.05, 'sandboxed/unsandboxed'),
    ),
  ];
}
