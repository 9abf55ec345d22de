/**
 * Who can reach the Gemini CLI IDE server, with the hostile handshakes the Claude Code server is
 * tested with: nothing without the bearer token, nothing from a browser, nothing under a foreign
 * Host, nothing off loopback; idle sockets are bounded in number and time, and refusals are logged
 * at a bounded rate.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { GeminiIdeServer, type GeminiIdeServerOptions } from '../../../src/core/ide/gemini/server.js';
import type { Logger } from '../../../src/core/ports.js';
import { FakeEditor } from '../ide/fake-editor.js';
import { assertLoopbackOnly } from '../../support/loopback-only.js';
import { GeminiAgent, readDiscovery, type FoundDiscovery } from '../ide/gemini-agent.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

class KeepingLogger implements Logger {
  readonly lines: string[] = [];
  trace = (m: string) => void this.lines.push(m);
  debug = (m: string) => void this.lines.push(m);
  info = (m: string) => void this.lines.push(m);
  warn = (m: string) => void this.lines.push(m);
  error = (m: string) => void this.lines.push(m);
}

async function start(
  opts: Partial<GeminiIdeServerOptions> = {},
): Promise<{ server: GeminiIdeServer; found: FoundDiscovery; logger: KeepingLogger }> {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-sec-'));
  dirs.push(dir);
  const logger = new KeepingLogger();
  const server = await GeminiIdeServer.start({
    editor: new FakeEditor(),
    logger,
    discoveryDir: join(dir, 'gemini', 'ide'),
    idePid: 7,
    ...opts,
  });
  return { server, logger, found: readDiscovery(join(dir, 'gemini', 'ide'))[0]! };
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

/** One raw HTTP request (no client library in between, so any header can be forged); resolves status and body. */
function post(
  port: number,
  headers: Record<string, string>,
  body = INIT,
  path = '/mcp',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (r) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text, headers: r.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function tcp(port: number, host = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host, port });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

function closed(s: Socket): Promise<void> {
  return new Promise((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));
}

test('the right bearer token initializes (control for the refusals below)', async () => {
  const { server, found } = await start();
  try {
    const r = await post(server.port, { authorization: `Bearer ${found.content.authToken}` });
    assert.equal(r.status, 200, r.body);
    assert.match(r.body, /"protocolVersion"/);
  } finally {
    await server.dispose();
  }
});

test('no token, a wrong token, a wrong-length token and a malformed header are refused with 401', async () => {
  const { server, found } = await start();
  try {
    const t = found.content.authToken;
    const flipped = (t[0] === 'A' ? 'B' : 'A') + t.slice(1);
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${flipped}` },
      { authorization: `Bearer ${t.slice(0, -1)}` },
      { authorization: `Bearer ${t}x` },
      { authorization: `Basic ${t}` },
      { authorization: t },
      { 'x-claude-code-ide-authorization': t },
    ]) {
      const r = await post(server.port, headers);
      assert.equal(r.status, 401, JSON.stringify(headers));
      assert.ok(!r.body.includes(t));
    }
  } finally {
    await server.dispose();
  }
});

test('a browser Origin is refused even with the right token; no CORS header is ever sent', async () => {
  const { server, found } = await start();
  try {
    for (const origin of ['https://evil.example', 'http://localhost:3000', 'null', `http://127.0.0.1:${server.port}`]) {
      const r = await post(server.port, { authorization: `Bearer ${found.content.authToken}`, origin });
      assert.equal(r.status, 403, origin);
      assert.equal(r.headers['access-control-allow-origin'], undefined);
    }
  } finally {
    await server.dispose();
  }
});

test('a foreign Host (DNS rebinding) is refused', async () => {
  const { server, found } = await start();
  try {
    for (const host of [`evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`, 'localhost']) {
      const r = await post(server.port, { authorization: `Bearer ${found.content.authToken}`, host });
      assert.equal(r.status, 403, host);
    }
  } finally {
    await server.dispose();
  }
});

test('other paths, unknown sessions, non-initialize first requests and huge bodies are refused', async () => {
  const { server, found } = await start({ maxBodyBytes: 64 * 1024 });
  try {
    const auth = { authorization: `Bearer ${found.content.authToken}` };
    assert.equal((await post(server.port, auth, INIT, '/')).status, 404);
    assert.equal((await post(server.port, { ...auth, 'mcp-session-id': 'made-up' })).status, 404);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    assert.equal((await post(server.port, auth, list)).status, 400);
    assert.equal((await post(server.port, auth, 'x'.repeat(100 * 1024))).status, 413);
    assert.equal((await post(server.port, auth)).status, 200, 'still serving');
  } finally {
    await server.dispose();
  }
});

test('the port is reachable on 127.0.0.1 only', async () => {
  const { server } = await start();
  try {
    await assertLoopbackOnly(server.port);
  } finally {
    await server.dispose();
  }
});

test('the discovery file is 0600 in a 0700 folder', { skip: process.platform === 'win32' }, async () => {
  const { server, found } = await start();
  try {
    assert.equal(statSync(dirname(found.file)).mode & 0o777, 0o700);
    assert.equal(found.mode, 0o600);
  } finally {
    await server.dispose();
  }
});

test('a socket that never sends a request is closed after the handshake timeout', { timeout: 30_000 }, async () => {
  const { server } = await start({ limits: { handshakeTimeoutMs: 500 } });
  try {
    await closed(await tcp(server.port));
  } finally {
    await server.dispose();
  }
});

test(
  'a flood of idle connections cannot lock out an agent; the server keeps only a few, and logs at a bounded rate',
  { timeout: 60_000 },
  async () => {
    const { server, found, logger } = await start({ limits: { maxPending: 8, handshakeTimeoutMs: 60_000 } });
    try {
      const idle: Socket[] = [];
      for (let i = 0; i < 200; i++) idle.push(await tcp(server.port));
      let dropped = 0;
      await new Promise<void>((resolve) => {
        for (const s of idle) void closed(s).then(() => ++dropped >= 192 && resolve());
      });
      const agent = await GeminiAgent.connect(server.port, found.content.authToken);
      const { tools } = await agent.client.listTools();
      assert.ok(tools.some((t) => t.name === 'openDiff'));
      await agent.close();
      for (const s of idle) s.destroy();
      const dropLines = logger.lines.filter((l) => /dropped a connection/.test(l));
      assert.ok(dropLines.length <= 5, `drop lines are rate-limited: ${dropLines.length}`);
    } finally {
      await server.dispose();
    }
  },
);

test('refused requests are logged at a bounded rate', async () => {
  const { server, logger } = await start();
  try {
    for (let i = 0; i < 50; i++) assert.equal((await post(server.port, { authorization: 'Bearer wrong' })).status, 401);
    const refused = logger.lines.filter((l) => /refused a request/.test(l));
    assert.ok(refused.length >= 1 && refused.length <= 5, `${refused.length} refusal lines for 50 refusals`);
  } finally {
    await server.dispose();
  }
});

test('sessions are bounded: the oldest one without a stream makes room, none is refused while room exists', async () => {
  const { server, found } = await start({ limits: { maxSessions: 2 } });
  try {
    const auth = { authorization: `Bearer ${found.content.authToken}` };
    for (let i = 0; i < 5; i++) assert.equal((await post(server.port, auth)).status, 200);
    const a = await GeminiAgent.connect(server.port, found.content.authToken);
    const b = await GeminiAgent.connect(server.port, found.content.authToken);
    await a.next('ide/contextUpdate');
    await b.next('ide/contextUpdate');
    assert.equal(server.clientCount(), 2);
    assert.equal((await post(server.port, auth)).status, 503, 'both sessions hold a stream');
    await a.close();
    await b.close();
  } finally {
    await server.dispose();
  }
});
