/**
 * Soak (issue 30): a million in-process calls, then an hour of reconnect cycles on the fake clock
 * (each cycle the server drops its connection, ten seconds of fake time pass, the next call
 * reconnects). Figures: heap growth from the first tenth to the end after GC, and the process's
 * active handles/timers and listeners before against after: a leak shows as a count that grew.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../src/core/host.js';
import { nullLogger } from '../src/core/ports.js';
import { FakeClock } from '../test/support/fakes.js';
import { definition } from './lib/host.js';
import { echoServer } from './lib/inproc.js';
import { figure, type Figure } from './lib/stats.js';

function heapMb(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** Active handles and timers by kind, and every listener on `process`. */
function resources(): { handles: number; listeners: number; detail: string } {
  const kinds = process.getActiveResourcesInfo();
  const listeners = process.eventNames().reduce((n, e) => n + process.listenerCount(e), 0);
  const by = new Map<string, number>();
  for (const k of kinds) by.set(k, (by.get(k) ?? 0) + 1);
  return { handles: kinds.length, listeners, detail: [...by].map(([k, n]) => `${k}:${n}`).join(' ') };
}

const CYCLE_MS = 10_000;
const HOUR_MS = 3_600_000;

export async function soak(quick: boolean): Promise<Figure[]> {
  const total = quick ? 20_000 : 1_000_000;
  const cycles = quick ? 36 : HOUR_MS / CYCLE_MS;
  const clock = new FakeClock();
  let live: McpServer | undefined;
  let starts = 0;
  const host = createHost({
    logger: nullLogger,
    blobDir: mkdtempSync(join(tmpdir(), 'mcp-soak-blobs-')),
    timeouts: { connectMs: 30_000, toolCallMs: 30_000 },
    env: {},
    clock,
  });
  host.setDefinitions([
    definition('soak', {
      type: 'inprocess',
      id: 'soak-echo',
      start: async (t) => {
        starts++;
        live = echoServer();
        await live.connect(t);
      },
    }),
  ]);
  await host.whenSettled();
  const args = { text: 'soak' };
  const check = (r: { isError: boolean }) => {
    if (r.isError) throw new Error('soak: a call failed');
  };
  // Warm-up, so the first tenth does not count module loading and JIT.
  for (let i = 0; i < 2000; i++) check(await host.callTool('soak', 'echo', args));
  const before = resources();
  let heapFirst = 0;
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    check(await host.callTool('soak', 'echo', args));
    if (i === Math.floor(total / 10)) heapFirst = heapMb();
  }
  const callsMs = performance.now() - t0;
  const heapCalls = heapMb() - heapFirst;

  const heapCycles0 = heapMb();
  const startsBefore = starts;
  const timersBefore = clock.pending();
  for (let c = 0; c < cycles; c++) {
    await live?.close();
    clock.advance(CYCLE_MS);
    check(await host.callTool('soak', 'echo', args));
  }
  const reconnects = starts - startsBefore;
  if (reconnects < cycles) throw new Error(`soak: ${cycles} drops but only ${reconnects} reconnects`);
  const heapCycles = heapMb() - heapCycles0;
  const timersAfter = clock.pending();
  const after = resources();
  await host.dispose();
  const done = resources();
  console.log(`[soak] handles before ${before.detail}; after ${after.detail}; after dispose ${done.detail}`);

  const flat = (limit: number) => ({ text: `< ${limit} MB`, ok: (v: number) => v < limit });
  const noGrowth = (before: number) => ({ text: 'no growth', ok: (v: number) => v <= before });
  return [
    figure(
      'soak',
      `${total.toLocaleString('en-US')} in-process calls: heap growth, first tenth to end`,
      heapCalls,
      'MB',
      undefined,
      flat(5),
    ),
    figure('soak', 'in-process calls: throughput', (total / callsMs) * 1000, 'calls/s'),
    figure(
      'soak',
      `${cycles} reconnect cycles (${((cycles * CYCLE_MS) / 60_000).toFixed(0)} fake min): heap growth`,
      heapCycles,
      'MB',
      undefined,
      flat(5),
    ),
    figure(
      'soak',
      'active handles and timers after the soak',
      after.handles,
      'handles',
      { name: 'before', value: before.handles },
      noGrowth(before.handles),
    ),
    figure(
      'soak',
      'host timers pending on the clock after the reconnect cycles',
      timersAfter,
      'timers',
      { name: 'before', value: timersBefore },
      noGrowth(timersBefore),
    ),
    figure(
      'soak',
      'listeners on process after the soak',
      after.listeners,
      'listeners',
      { name: 'before', value: before.listeners },
      noGrowth(before.listeners),
    ),
  ];
}
