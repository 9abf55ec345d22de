/**
 * The manager and its per-server objects on in-process servers (the SDK's InMemoryTransport) with
 * a fake clock: no processes, no wall-clock waits. Every wait is on an event or a promise.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { FakeClock, MemoryLogger } from '../../support/fakes.js';
import { until } from './helpers.js';

function inProcess(name: string, start: (t: Transport) => Promise<void>, timeout?: number): ServerDefinition {
  const config = { type: 'inprocess' as const, id: name, start, ...(timeout !== undefined ? { timeout } : {}) };
  return {
    name,
    config,
    source: { scope: 'dynamic', file: 'test', jsonPath: [name] },
    signature: `inprocess:${name}`,
    hash: `h-${name}`,
  };
}

/** A real MCP server with one `echo` tool; returns the server so a test can change its tools. */
function echoServer(label = 'echo'): { start: (t: Transport) => Promise<void>; servers: McpServer[] } {
  const servers: McpServer[] = [];
  return {
    servers,
    start: async (t) => {
      const s = new McpServer({ name: label, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
      s.registerTool(
        'echo',
        { description: 'echo', inputSchema: z.object({ message: z.string() }) },
        ({ message }) => ({
          content: [{ type: 'text', text: `${label}:${message}` }],
        }),
      );
      servers.push(s);
      await s.connect(t);
    },
  };
}

function newHost(
  t: { after(fn: () => Promise<void>): void },
  clock = new FakeClock(),
): { host: McpHost; clock: FakeClock; log: MemoryLogger } {
  const log = new MemoryLogger();
  const host = createHost({ logger: log, blobDir: '/nonexistent-blobs', env: {}, clock });
  t.after(() => host.dispose());
  return { host, clock, log };
}

test('connects an in-process server, lists its tools and calls one', async (t) => {
  const { host } = newHost(t);
  host.setDefinitions([inProcess('a', echoServer().start)]);
  await host.whenSettled();
  const s = host.server('a')!;
  assert.equal(s.state.kind, 'connected');
  assert.deepEqual(
    s.tools.map((x) => x.qualifiedName),
    ['mcp__a__echo'],
  );
  const r = await host.callTool('a', 'echo', { message: 'hi' });
  assert.deepEqual(r.content, [{ type: 'text', text: 'echo:hi' }]);
});

test('a stale attempt is cancelled: a restart while the first attempt hangs ends connected to the second only', async (t) => {
  const { host } = newHost(t);
  let calls = 0;
  let firstTransport: Transport | undefined;
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((r) => (releaseFirst = r));
  const second = echoServer('second');
  host.setDefinitions([
    inProcess('a', async (tr) => {
      calls++;
      if (calls === 1) {
        firstTransport = tr;
        await firstHeld; // never answers initialize until released
        return;
      }
      await second.start(tr);
    }),
  ]);
  assert.equal(host.server('a')!.state.kind, 'pending');
  const restarted = host.restart('a');
  releaseFirst();
  await restarted;
  await host.whenSettled();
  const s = host.server('a')!;
  assert.equal(s.state.kind, 'connected');
  assert.ok(s.state.kind === 'connected' && s.state.serverInfo.name === 'second');
  assert.equal(calls, 2);
  assert.ok(firstTransport, 'the first attempt started');
  const r = await host.callTool('a', 'echo', { message: 'x' });
  assert.deepEqual(r.content, [{ type: 'text', text: 'second:x' }]);
});

test('the connect timeout runs on the clock port: a server that never answers fails when the clock passes it', async (t) => {
  const { host, clock } = newHost(t);
  host.setDefinitions([inProcess('mute', () => new Promise<void>(() => {}), 5_000)]);
  assert.equal(host.server('mute')!.state.kind, 'pending');
  const failed = until(host, 'mute', (s) => s.state.kind === 'failed');
  clock.advance(4_999);
  assert.equal(host.server('mute')!.state.kind, 'pending', 'not before its time');
  clock.advance(1);
  const s = await failed;
  assert.ok(s.state.kind === 'failed' && s.state.error.code === 'connect-timeout', JSON.stringify(s.state));
  assert.match(s.state.kind === 'failed' ? s.state.error.message : '', /within 5000 ms/);
  await host.whenSettled();
});

test('stop during a connect attempt settles as stopped; start connects again', async (t) => {
  const { host } = newHost(t);
  let calls = 0;
  const ok = echoServer();
  host.setDefinitions([inProcess('a', (tr) => (++calls === 1 ? new Promise<void>(() => {}) : ok.start(tr)))]);
  await host.stop('a');
  await host.whenSettled();
  assert.deepEqual(host.server('a')!.state, { kind: 'disabled', reason: 'user', message: 'stopped' });
  await host.start('a');
  assert.equal(host.server('a')!.state.kind, 'connected');
});

test('list_changed: a tool added on the server shows up in the snapshot', async (t) => {
  const { host } = newHost(t);
  const srv = echoServer();
  host.setDefinitions([inProcess('a', srv.start)]);
  await host.whenSettled();
  const grown = until(host, 'a', (s) => s.tools.length === 2);
  srv.servers[0].registerTool('added', { description: 'new' }, () => ({ content: [] }));
  const s = await grown;
  assert.deepEqual(s.tools.map((x) => x.name).sort(), ['added', 'echo']);
});

test('a closed in-process connection fails with a clear error; the next use reconnects lazily', async (t) => {
  const { host } = newHost(t);
  const srv = echoServer();
  host.setDefinitions([inProcess('a', srv.start)]);
  await host.whenSettled();
  const failed = until(host, 'a', (s) => s.state.kind === 'failed');
  await srv.servers[0].close();
  const s = await failed;
  assert.ok(s.state.kind === 'failed' && s.state.error.code === 'connection-closed', JSON.stringify(s.state));
  assert.deepEqual(s.tools, [], 'lists cached from a closed connection are dropped');
  const r = await host.callTool('a', 'echo', { message: 'back' });
  assert.deepEqual(r.content, [{ type: 'text', text: 'echo:back' }]);
  assert.equal(srv.servers.length, 2);
});

test('admission changes reach the host: held → runs starts it, a new held reason is shown without a restart', async (t) => {
  const { host } = newHost(t);
  const srv = echoServer();
  const base = inProcess('a', srv.start);
  host.setDefinitions([
    { ...base, admission: { run: false, reason: 'not-approved', message: 'approve it', ask: true } },
  ]);
  await host.whenSettled();
  assert.deepEqual(host.server('a')!.state, { kind: 'disabled', reason: 'config', message: 'approve it' });
  assert.equal(srv.servers.length, 0, 'a held server is never started');
  host.setDefinitions([{ ...base, admission: { run: false, reason: 'user-disabled', message: 'off here' } }]);
  assert.deepEqual(host.server('a')!.state, { kind: 'disabled', reason: 'config', message: 'off here' });
  host.setDefinitions([{ ...base, admission: { run: true } }]);
  await host.whenSettled();
  assert.equal(host.server('a')!.state.kind, 'connected');
});

test('calls on a disposed host fail with a clear error instead of starting anything', async (t) => {
  const { host } = newHost(t);
  const srv = echoServer();
  host.setDefinitions([inProcess('a', srv.start)]);
  await host.whenSettled();
  await host.dispose();
  await assert.rejects(host.callTool('a', 'echo', { message: 'x' }), /disposed/);
});

test('updateSettings: a new connect timeout applies to the next attempt without a new host', async (t) => {
  const { host, clock } = newHost(t);
  host.updateSettings({ timeouts: { connectMs: 2_000 } });
  host.setDefinitions([inProcess('mute', () => new Promise<void>(() => {}))]);
  const failed = until(host, 'mute', (s) => s.state.kind === 'failed');
  clock.advance(1_999);
  assert.equal(host.server('mute')!.state.kind, 'pending');
  clock.advance(1);
  const s = await failed;
  assert.match(s.state.kind === 'failed' ? s.state.error.message : '', /within 2000 ms/);
  host.updateSettings({ timeouts: { connectMs: 9_000 } });
  const again = host.restart('mute');
  await until(host, 'mute', (x) => x.state.kind === 'pending');
  const failedAgain = until(host, 'mute', (x) => x.state.kind === 'failed');
  clock.advance(8_999);
  assert.equal(host.server('mute')!.state.kind, 'pending', 'the raised timeout holds');
  clock.advance(1);
  assert.match(((await failedAgain).state as { error: { message: string } }).error.message, /within 9000 ms/);
  await again;
});
