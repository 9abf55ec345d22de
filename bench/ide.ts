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
import { FakeEditor } from '../test/integration/ide/fake-editor.js';
import { figure, ratioAtLeast, ratioAtMost, summarize, type Figure } from './lib/stats.js';
import { sdkOverWs } from './lib/sdk-over-ws.js';
import { rawAgent } from './lib/raw-agent.js';
import { AUTH_HEADER } from '../src/core/ide/auth.js';

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

/** A bare `ws` echo server and a client of it: round trips of `payloadBytes`-sized text frames. */
async function echoPair(payloadBytes: number): Promise<{ once: () => Promise<void>; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (s) => s.on('message', (m, isBinary) => s.send(m, { binary: isBinary })));
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  await new Promise((r) => ws.once('open', r));
  const payload = 'x'.repeat(payloadBytes);
  const pending: (() => void)[] = [];
  ws.on('message', () => pending.shift()?.());
  return {
    once: () =>
      new Promise<void>((r) => {
        pending.push(r);
        ws.send(payload);
      }),
    close: async () => {
      ws.close();
      await new Promise((r) => wss.close(r));
    },
  };
}

type Call = () => Promise<unknown>;

/** Time of one call, in ms. */
async function timed(call: Call): Promise<number> {
  const t = performance.now();
  await call();
  return performance.now() - t;
}

/** Milliseconds `n` calls take, `inFlight` at a time. */
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

/** Milliseconds `n` calls of each side take, 16 in flight, the sides taking turns in blocks of 2 × BLOCK. */
async function alternating(sides: Call[], n: number): Promise<number[]> {
  const ms = sides.map(() => 0);
  for (let done = 0; done < n; done += 2 * BLOCK) {
    const k = Math.min(2 * BLOCK, n - done);
    for (const [i, call] of sides.entries()) ms[i]! += await concurrent(call, k, 16);
  }
  return ms;
}

// The IDE server and the echo take turns (call by call, or in blocks of BLOCK), so load from
// elsewhere on the machine lands on both sides of each ratio rather than on one.
const BLOCK = 500;

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
    const echoSamples: number[] = [];
    const floorSamples: number[] = [];
    const echoBig = await echoPair(bytes);
    // The same diagnostics through the bare SDK: stringified per call, as getDiagnostics does.
    const floor = await sdkOverWs({
      getDiagnostics: () => JSON.stringify(editor.diags),
      getWorkspaceFolders: () => JSON.stringify({ success: true, folders: [], rootPath: null }),
    });
    for (let i = 0; i < runs; i++) {
      samples.push(await timed(() => agent.call('getDiagnostics')));
      echoSamples.push(await timed(echoBig.once));
      floorSamples.push(await timed(() => floor.call('getDiagnostics')));
    }
    await echoBig.close();
    const diagP50 = summarize(samples).p50;
    const floorP50 = summarize(floorSamples).p50;
    out.push(
      figure(
        'ide',
        `getDiagnostics, ${files * 10} diagnostics / ${files} files, p50`,
        diagP50,
        'ms',
        { name: `ws echo of ${(bytes / 1e6).toFixed(1)} MB`, value: summarize(echoSamples).p50 },
        ratioAtMost(1.15, 'host/echo'),
      ),
      figure('ide', 'getDiagnostics p50, the same text through the bare SDK over ws (no IDE code)', floorP50, 'ms', {
        name: 'IDE server',
        value: diagP50,
      }),
    );

    const n = quick ? 200 : 10_000;
    const small = () => agent.call('getWorkspaceFolders');
    const echoSmall = await echoPair(200);
    const host: number[] = [];
    const echo: number[] = [];
    for (let done = 0; done < n; done += BLOCK) {
      for (let i = 0; i < BLOCK && done + i < n; i++) host.push(await timed(small));
      for (let i = 0; i < BLOCK && done + i < n; i++) echo.push(await timed(echoSmall.once));
    }
    const [hostMs, echoMs] = (await alternating([small, echoSmall.once], n)) as [number, number];
    // The MCP floor: the same small request through the bare SDK, in the same alternating blocks.
    const sdkSmall = () => floor.call('getWorkspaceFolders');
    const [hostAgainMs, sdkMs] = (await alternating([small, sdkSmall], n)) as [number, number];
    // The server's own cost: the same requests from an agent that costs nothing (raw-agent.ts),
    // against the same echo and the bare SDK server, in the same alternating blocks.
    const lock = readLocks(lockDir)[0]!;
    const raw = await rawAgent(lock.port, { [AUTH_HEADER]: lock.content.authToken });
    const rawFloor = await rawAgent(floor.port, {});
    const [rawMs, rawEchoMs, rawSdkMs] = (await alternating(
      [() => raw.call('getWorkspaceFolders'), echoSmall.once, () => rawFloor.call('getWorkspaceFolders')],
      n,
    )) as [number, number, number];
    raw.close();
    rawFloor.close();
    await echoSmall.close();
    await floor.close();
    out.push(
      figure('ide', `${n} small requests, p50`, summarize(host).p50, 'ms', {
        name: 'ws echo',
        value: summarize(echo).p50,
      }),
    );
    /** A throughput row: `n` requests in `ms`, beside the same `n` of `base` in `baseMs`. */
    const throughput = (
      name: string,
      ms: number,
      base: string,
      baseMs: number,
      target?: Parameters<typeof figure>[5],
    ): Figure => figure('ide', name, (n / ms) * 1000, 'req/s', { name: base, value: (n / baseMs) * 1000 }, target);
    out.push(
      // No target here: the SDK agent shares this process, and its own zod pass over every answer
      // (as much as the server's) lands on the figure. The raw agent's row below is the server's.
      throughput(`${n} small requests, throughput (16 in flight)`, hostMs, 'ws echo', echoMs),
      throughput(
        'small requests, throughput: bare SDK over ws (no IDE code) / IDE server',
        sdkMs,
        'IDE server',
        hostAgainMs,
      ),
      throughput(
        'small requests, throughput (16 in flight), agent without an SDK (raw JSON-RPC)',
        rawMs,
        'ws echo',
        rawEchoMs,
        ratioAtLeast(0.5, 'host/echo'),
      ),
      // The bare SDK server answers through the SDK; the IDE server's read-only calls take its
      // direct path (core/ide/direct-calls.ts).
      throughput(
        'small requests, throughput, agent without an SDK: bare SDK server / IDE server',
        rawSdkMs,
        'IDE server',
        rawMs,
      ),
    );
  } finally {
    await agent.close();
    await server.dispose();
    rmSync(lockDir, { recursive: true, force: true });
  }
  return out;
}
