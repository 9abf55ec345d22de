/**
 * The IDE server end to end over WebSocket (agent-like client, real server, fake editor) against
 * a bare `ws` echo server on the same machine carrying messages of the same size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import { IdeServer } from '../src/core/ide/index.js';
import { nullLogger } from '../src/core/ports.js';
import { connectAgent, readLocks } from '../test/integration/ide/agent.js';
import { FakeEditor } from '../test/integration/ide/fakeEditor.js';
import { figure, ratioAtLeast, ratioAtMost, summarize, type Figure } from './lib/stats.js';

function manyDiagnostics(files: number, perFile: number): FakeEditor['diags'] {
  return Array.from({ length: files }, (_, f) => ({
    uri: `file:///work/proj/src/file${f}.ts`,
    diagnostics: Array.from({ length: perFile }, (_, d) => ({
      message: `Type 'string' is not assignable to type 'number'. (${f}:${d})`,
      severity: (['Error', 'Warning', 'Info', 'Hint'] as const)[d % 4],
      range: { start: { line: d, character: 2 }, end: { line: d, character: 14 } },
      source: 'ts',
      code: 2322,
    })),
  }));
}

/** Round trips of `payload`-sized text frames through a ws server that echoes them. */
async function bareEcho(payloadBytes: number, n: number, inFlight = 1): Promise<{ p50: number; perSec: number }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (s) => s.on('message', (m, isBinary) => s.send(m, { binary: isBinary })));
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  await new Promise((r) => ws.once('open', r));
  const payload = 'x'.repeat(payloadBytes);
  const pending: (() => void)[] = [];
  ws.on('message', () => pending.shift()?.());
  const once = () =>
    new Promise<void>((r) => {
      pending.push(r);
      ws.send(payload);
    });
  const samples: number[] = [];
  for (let i = 0; i < Math.min(n, 2000); i++) {
    const t = performance.now();
    await once();
    samples.push(performance.now() - t);
  }
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => { while (next++ < n) await once(); }));
  const perSec = (n / (performance.now() - t0)) * 1000;
  ws.close();
  await new Promise((r) => wss.close(r));
  return { p50: summarize(samples).p50, perSec };
}

export async function ide(quick: boolean): Promise<Figure[]> {
  const lockDir = mkdtempSync(join(tmpdir(), 'mcp-bench-ide-'));
  const editor = new FakeEditor();
  const files = quick ? 200 : 2000;
  editor.diags = manyDiagnostics(files, 10);
  const server = await IdeServer.start({ editor, logger: nullLogger, ideName: 'bench', lockDir });
  const agent = await connectAgent(readLocks(lockDir)[0]!);
  const out: Figure[] = [];
  try {
    const first = await agent.call('getDiagnostics');
    const bytes = JSON.stringify(first).length;
    const runs = quick ? 5 : 50;
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await agent.call('getDiagnostics');
      samples.push(performance.now() - t);
    }
    const echoBig = await bareEcho(bytes, runs);
    out.push(
      figure('ide', `getDiagnostics, ${files * 10} diagnostics / ${files} files, p50`, summarize(samples).p50, 'ms', { name: `ws echo of ${(bytes / 1e6).toFixed(1)} MB`, value: echoBig.p50 }, ratioAtMost(1.2, 'host/echo')),
    );

    const n = quick ? 200 : 10_000;
    const small: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await agent.call('getWorkspaceFolders');
      small.push(performance.now() - t);
    }
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 16 }, async () => { while (next++ < n) await agent.call('getWorkspaceFolders'); }));
    const perSec = (n / (performance.now() - t0)) * 1000;
    const echoSmall = await bareEcho(200, n, 16);
    out.push(figure('ide', `${n} small requests, p50`, summarize(small).p50, 'ms', { name: 'ws echo', value: echoSmall.p50 }));
    out.push(figure('ide', `${n} small requests, throughput (16 in flight)`, perSec, 'req/s', { name: 'ws echo', value: echoSmall.perSec }, ratioAtLeast(0.5, 'host/echo')));
  } finally {
    await agent.close();
    await server.dispose();
    rmSync(lockDir, { recursive: true, force: true });
  }
  return out;
}
