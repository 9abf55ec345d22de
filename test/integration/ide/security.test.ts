// Who can reach the IDE server: nothing without the token, nothing from a browser, nothing off
// loopback; and garbage from an authenticated peer cannot break it (CVE-2025-52882 class).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { nullLogger } from '../../../src/core/ports.js';
import { AUTH_HEADER } from '../../../src/core/ide/auth.js';
import { IdeServer } from '../../../src/core/ide/server.js';
import { connectAgent, jsonOf, openSocket, readLocks, type FoundLock } from './agent.js';
import { FakeEditor } from './fake-editor.js';
import { assertLoopbackOnly, tcpConnects } from '../../support/loopback-only.js';

/** Opens a socket and reports the HTTP status of a refused upgrade (or 101 when it opened). */
async function upgradeStatus(port: number, headers: Record<string, string>): Promise<number> {
  try {
    const ws = await openSocket(port, headers);
    ws.terminate();
    return 101;
  } catch (err) {
    const status = (err as { status?: number }).status;
    assert.ok(status, `expected an HTTP refusal, got ${String(err)}`);
    return status;
  }
}

/** Deterministic PRNG so a failing fuzz run can be replayed. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('IDE server security', () => {
  let dir: string;
  let lockDir: string;
  let server: IdeServer;
  let lock: FoundLock;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ide-sec-'));
    lockDir = join(dir, 'claude', 'ide');
    server = await IdeServer.start({ editor: new FakeEditor(), logger: nullLogger, ideName: 'MCP Host Test', lockDir });
    lock = readLocks(lockDir)[0]!;
  });

  after(async () => {
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the right token opens the socket (control for the refusals below)', async () => {
    assert.equal(await upgradeStatus(lock.port, { [AUTH_HEADER]: lock.content.authToken }), 101);
  });

  test('no token, a wrong token and a wrong-length token are refused before the upgrade', async () => {
    const t = lock.content.authToken;
    assert.equal(await upgradeStatus(lock.port, {}), 401);
    assert.equal(await upgradeStatus(lock.port, { [AUTH_HEADER]: '' }), 401);
    const flipped = (t[0] === 'A' ? 'B' : 'A') + t.slice(1);
    assert.equal(flipped.length, t.length);
    assert.equal(await upgradeStatus(lock.port, { [AUTH_HEADER]: flipped }), 401);
    assert.equal(await upgradeStatus(lock.port, { [AUTH_HEADER]: t.slice(0, -1) }), 401);
    assert.equal(await upgradeStatus(lock.port, { [AUTH_HEADER]: t + 'x' }), 401);
    assert.equal(
      await upgradeStatus(lock.port, { authorization: `Bearer ${t}` }),
      401,
      'the token only counts in its own header',
    );
  });

  test('a browser Origin is refused even with the right token', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:3000', 'null', `http://127.0.0.1:${lock.port}`]) {
      assert.equal(await upgradeStatus(lock.port, { [AUTH_HEADER]: lock.content.authToken, origin }), 403, origin);
    }
  });

  test('a foreign Host (DNS rebinding) is refused', async () => {
    assert.equal(
      await upgradeStatus(lock.port, { [AUTH_HEADER]: lock.content.authToken, host: `evil.example:${lock.port}` }),
      403,
    );
  });

  test('plain HTTP requests are refused and learn nothing', async () => {
    const res = await new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: lock.port,
            path: '/',
            method: 'GET',
            headers: { [AUTH_HEADER]: lock.content.authToken },
          },
          (r) => {
            let body = '';
            r.on('data', (c: Buffer) => (body += c.toString()));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, body, headers: r.headers }));
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    assert.equal(res.status, 426);
    assert.ok(!res.body.includes(lock.content.authToken));
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  test('the port is reachable on 127.0.0.1 only', async () => {
    await assertLoopbackOnly(lock.port);
  });

  test('the lock file is 0600 in a 0700 folder', { skip: process.platform === 'win32' }, () => {
    assert.equal(statSync(lockDir).mode & 0o777, 0o700);
    assert.equal(statSync(lock.file).mode & 0o777, 0o600);
  });

  test('1,000 malformed or random frames get JSON-RPC errors or are dropped; the connection keeps serving', async () => {
    const ws = await openSocket(lock.port, { [AUTH_HEADER]: lock.content.authToken });
    const received: Record<string, unknown>[] = [];
    const waiting = new Map<string | number, (m: Record<string, unknown>) => void>();
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      received.push(m);
      const w = waiting.get(m.id as string);
      if (w) w(m);
    });
    const ask = (id: string, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
      new Promise((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    const init = await ask('init', 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'fuzz', version: '1' },
    });
    assert.ok(init.result);
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const afterInit = received.length;

    const rand = mulberry32(0xc0ffee);
    const int = (n: number) => Math.floor(rand() * n);
    const randBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
    const valid = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const generators: (() => { data: string | Buffer; binary: boolean })[] = [
      () => ({ data: randBytes(1 + int(200)), binary: false }), // invalid UTF-8 as text
      () => ({ data: randBytes(1 + int(200)), binary: true }),
      () => ({ data: String.fromCharCode(...Array.from({ length: 1 + int(100) }, () => 32 + int(95))), binary: false }),
      () => ({ data: valid.slice(0, int(valid.length - 1)), binary: false }), // truncated
      () => ({ data: JSON.stringify([null, 1, 'x', true, [], {}][int(6)]), binary: false }),
      () => ({ data: JSON.stringify({ jsonrpc: '1.0', id: int(1000), method: 'tools/list' }), binary: false }),
      () => ({ data: JSON.stringify({ jsonrpc: '2.0', id: { nested: true }, method: 'tools/list' }), binary: false }),
      () => ({ data: JSON.stringify({ jsonrpc: '2.0', id: int(1000), method: 42 }), binary: false }),
      () => ({ data: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), binary: false }), // batches are not MCP
      () => ({ data: JSON.stringify({ jsonrpc: '2.0', id: 1e9 + int(1000), result: {} }), binary: false }), // response nobody asked for
      () => ({
        data: JSON.stringify({ jsonrpc: '2.0', id: `u${int(1000)}`, method: `no/such/method/${int(1000)}` }),
        binary: false,
      }),
      () => ({ data: '['.repeat(5000 + int(5000)), binary: false }),
      () => ({ data: '', binary: false }),
    ];
    for (let i = 0; i < 1000; i++) {
      const f = generators[i % generators.length]!();
      ws.send(f.data, { binary: f.binary });
    }
    const final = await ask('final', 'tools/list');
    assert.ok(
      Array.isArray((final.result as { tools: unknown[] }).tools),
      'a valid request after the fuzz is answered',
    );
    assert.equal(ws.readyState, WebSocket.OPEN);

    const fuzzReplies = received.slice(afterInit).filter((m) => m.id !== 'final');
    assert.ok(fuzzReplies.length > 500, `most garbage is answered with an error (got ${fuzzReplies.length})`);
    for (const m of fuzzReplies) {
      const err = m.error as { code?: unknown } | undefined;
      assert.equal(m.jsonrpc, '2.0');
      assert.equal(
        typeof err?.code,
        'number',
        `every reply to garbage is a JSON-RPC error: ${JSON.stringify(m).slice(0, 200)}`,
      );
    }
    assert.ok(
      fuzzReplies.some((m) => (m.error as { code: number }).code === -32700),
      'parse errors',
    );
    assert.ok(
      fuzzReplies.some((m) => (m.error as { code: number }).code === -32600),
      'invalid requests',
    );
    assert.ok(
      fuzzReplies.some((m) => (m.error as { code: number }).code === -32601),
      'unknown methods',
    );
    ws.terminate();

    // The server as a whole still serves a fresh agent.
    const agent = await connectAgent(lock);
    try {
      assert.equal(jsonOf(await agent.call('getWorkspaceFolders')).success, true);
    } finally {
      await agent.close();
    }
  });
});

describe('IDE server limits and lifecycle', () => {
  test('an oversized frame closes only that connection; a peer that stops answering pings is dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ide-lim-'));
    const server = await IdeServer.start({
      editor: new FakeEditor(),
      logger: nullLogger,
      ideName: 'MCP Host Test',
      lockDir: dir,
      maxPayloadBytes: 64 * 1024,
      keepAliveMs: 1000,
    });
    try {
      const lock = readLocks(dir)[0]!;
      const big = await openSocket(lock.port, { [AUTH_HEADER]: lock.content.authToken });
      const code = await new Promise<number>((resolve) => {
        big.once('close', (c) => resolve(c));
        big.send('x'.repeat(100 * 1024));
      });
      assert.equal(code, 1009);

      const silent = await new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${lock.port}`, ['mcp'], {
          headers: { [AUTH_HEADER]: lock.content.authToken },
          autoPong: false,
        });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
      const agent = await connectAgent(lock);
      try {
        await new Promise<void>((resolve) => silent.once('close', () => resolve()));
        assert.equal(jsonOf(await agent.call('getWorkspaceFolders')).success, true, 'the other agent is unaffected');
      } finally {
        await agent.close();
        silent.terminate();
      }
    } finally {
      await server.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the lock file disappears on shutdown and connections are closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ide-life-'));
    try {
      const server = await IdeServer.start({
        editor: new FakeEditor(),
        logger: nullLogger,
        ideName: 'MCP Host Test',
        lockDir: dir,
      });
      const lock = readLocks(dir)[0]!;
      assert.ok(existsSync(lock.file));
      const agent = await connectAgent(lock);
      const closed = new Promise<void>((resolve) => agent.ws.once('close', () => resolve()));
      await server.dispose();
      await closed;
      assert.equal(existsSync(lock.file), false);
      assert.equal(await tcpConnects('127.0.0.1', lock.port), false, 'nothing listens any more');
      await agent.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
