/**
 * The remote-only paths of a server object (reconnect backoff, three strikes, session expiry,
 * needs-auth) and call timeouts reset by progress, on in-process servers: an `http` definition is
 * served over an InMemoryTransport pair through the `transportFor` test port, and timers run on a
 * fake clock (the connect/backoff timers on the Clock port, the SDK's request timer on node:test's
 * mock timers). No sockets, no wall-clock waits.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { InMemoryTransport, McpServer, SdkHttpError, SdkErrorCode } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { HostOptions, ServerSnapshot } from '../../../src/core/host-api.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { HostError } from '../../../src/core/errors.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { FakeClock, MemoryLogger } from '../../support/fakes.js';
import { until } from './helpers.js';

const remote = (name: string): ServerDefinition => {
  const config = { type: 'http' as const, url: `https://${name}.test/mcp` };
  return {
    name,
    config,
    source: { scope: 'user', file: 'test', jsonPath: [name] },
    signature: `url:${config.url}`,
    hash: `h-${name}`,
  };
};

/** What one connect attempt does with the server side of its pair: serve, or throw. */
type Attempt = (serverSide: Transport, n: number) => Promise<void>;

interface Rig {
  host: McpHost;
  clock: FakeClock;
  /** Client sides handed out, one per attempt. */
  clients: Transport[];
  servers: McpServer[];
  /** Resolves when the n-th attempt has asked for its transport. */
  attempt(n: number): Promise<void>;
}

function echo(rig: { servers: McpServer[] }): Attempt {
  return async (t) => {
    const s = new McpServer({ name: 'r', version: '1' });
    s.registerTool('echo', { inputSchema: z.object({ message: z.string() }) }, ({ message }) => ({
      content: [{ type: 'text', text: message }],
    }));
    rig.servers.push(s);
    await s.connect(t);
  };
}

function rig(t: TestContext, attempt: (r: Rig) => Attempt, extra: Partial<HostOptions> = {}): Rig {
  const clock = new FakeClock();
  const waiters: { n: number; resolve: () => void }[] = [];
  const r = { clock, clients: [] as Transport[], servers: [] as McpServer[] } as Rig;
  r.attempt = (n) =>
    r.clients.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }));
  const run = attempt(r);
  const host = createHost({
    logger: new MemoryLogger(),
    blobDir: '/nonexistent-blobs',
    env: {},
    clock,
    backoff: { baseMs: 1000, maxMs: 30_000, maxAttempts: 3 },
    transportFor: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      r.clients.push(clientSide);
      const n = r.clients.length;
      for (const w of waiters.filter((x) => x.n <= n)) w.resolve();
      return { transport: clientSide, beforeConnect: () => run(serverSide, n) };
    },
    ...extra,
  });
  r.host = host;
  t.after(() => host.dispose());
  return r;
}

const pendingAt = (n: number) => (s: ServerSnapshot) => s.state.kind === 'pending' && s.state.attempt === n;

test('a lost remote connection reconnects with exponential backoff on the clock, then gives up after maxAttempts', async (t) => {
  const r = rig(t, (me) => {
    const ok = echo(me);
    return (side, n) => (n === 1 ? ok(side, n) : Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')));
  });
  r.host.setDefinitions([remote('a')]);
  await r.host.whenSettled();
  assert.equal(r.host.server('a')!.state.kind, 'connected');

  await r.servers[0].close();
  const s2 = await until(r.host, 'a', pendingAt(2));
  assert.ok(s2.state.kind === 'pending' && s2.state.maxAttempts === 3);
  r.clock.advance(999);
  assert.equal(r.clients.length, 1, 'no attempt before the first backoff (1000 ms) is over');
  r.clock.advance(1);
  await r.attempt(2);

  await until(r.host, 'a', pendingAt(3));
  r.clock.advance(1999);
  assert.equal(r.clients.length, 2, 'the second wait doubles (2000 ms)');
  r.clock.advance(1);
  await r.attempt(3);

  const failed = await until(r.host, 'a', (s) => s.state.kind === 'failed');
  assert.ok(
    failed.state.kind === 'failed' && failed.state.error.code === 'reconnect-failed',
    JSON.stringify(failed.state),
  );
  assert.match(
    failed.state.kind === 'failed' ? failed.state.error.message : '',
    /gave up reconnecting after 3 attempts: .*ECONNREFUSED/,
  );
  r.clock.advance(60_000);
  assert.equal(r.clients.length, 3, 'no attempt after giving up');
});

test('three consecutive terminal network errors close a remote connection; a message in between resets the count', async (t) => {
  const r = rig(t, echo);
  r.host.setDefinitions([remote('a')]);
  await r.host.whenSettled();
  const c = r.clients[0];
  const fail = (): void => c.onerror!(new TypeError('fetch failed'));
  fail();
  fail();
  await r.host.callTool('a', 'echo', { message: 'alive' }); // a message from the server resets the count
  fail();
  fail();
  assert.equal(r.host.server('a')!.state.kind, 'connected', 'two strikes after a reset are not three');
  const lost = until(r.host, 'a', pendingAt(2));
  fail();
  const s = await lost;
  assert.equal(s.state.kind, 'pending', 'the third strike closes it and a reconnect is scheduled');
  assert.deepEqual(s.tools, []);
  r.clock.advance(1000);
  await until(r.host, 'a', (x) => x.state.kind === 'connected');
  assert.equal(r.clients.length, 2);
});

test('session expired (HTTP 404, -32001) mid-call: a new session and exactly one retry', async (t) => {
  let expire = 0;
  // The client side fails the next `expire` tools/call sends the way an expired session does.
  const r2 = rig(t, (me) => {
    const ok = echo(me);
    return async (side, n) => {
      const c = me.clients[n - 1];
      const send = c.send.bind(c);
      c.send = async (msg, o) => {
        if (expire > 0 && 'method' in msg && msg.method === 'tools/call') {
          expire--;
          throw new SdkHttpError(
            SdkErrorCode.ClientHttpNotImplemented,
            'Error POSTing to endpoint (HTTP 404): {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"}}',
            { status: 404 },
          );
        }
        return send(msg, o);
      };
      await ok(side, n);
    };
  });
  r2.host.setDefinitions([remote('a')]);
  await r2.host.whenSettled();
  expire = 1;
  const res = await r2.host.callTool('a', 'echo', { message: 'again' });
  assert.deepEqual(res.content, [{ type: 'text', text: 'again' }]);
  assert.equal(r2.clients.length, 2, 'one new session');
  expire = 2;
  await assert.rejects(
    r2.host.callTool('a', 'echo', { message: 'x' }),
    (e: unknown) => e instanceof HostError && /404/.test(e.message),
  );
  assert.equal(r2.clients.length, 3, 'retried once, not in a loop');
});

test('needs-auth: a 401 at connect is a state of its own, with no retry loop, and a call says to authenticate', async (t) => {
  const r = rig(t, () => () => Promise.reject(new UnauthorizedError('no token')));
  r.host.setDefinitions([remote('a')]);
  await r.host.whenSettled();
  const s = r.host.server('a')!;
  assert.ok(s.state.kind === 'needs-auth', JSON.stringify(s.state));
  assert.match(s.state.message, /a needs authentication: no token/);
  r.clock.advance(120_000);
  assert.equal(r.clients.length, 1, 'no reconnect timer');
  await assert.rejects(
    r.host.callTool('a', 'echo', { message: 'x' }),
    (e: unknown) => e instanceof HostError && e.code === 'needs-auth' && /Authenticate/.test(e.hint ?? ''),
  );
  assert.equal(r.clients.length, 1, 'a call does not reconnect a server that needs auth');
});

test('a call timeout is reset by each progress notification; without progress it times out', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let started!: () => void;
  let progress!: (n: number) => Promise<void>;
  let finish!: () => void;
  const r = rig(t, (me) => async (side) => {
    const s = new McpServer({ name: 'slow', version: '1' });
    s.registerTool('slow', {}, async (extra) => {
      const token = extra.mcpReq._meta?.progressToken;
      const done = new Promise<void>((res) => (finish = res));
      progress = (n) =>
        token === undefined
          ? Promise.resolve()
          : extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: n } });
      started();
      await done;
      return { content: [{ type: 'text', text: 'done' }] };
    });
    me.servers.push(s);
    await s.connect(side);
  });
  r.host.setDefinitions([remote('a')]);
  await r.host.whenSettled();

  const seen: number[] = [];
  let running = new Promise<void>((res) => (started = res));
  let gotProgress!: () => void;
  const call = r.host.callTool(
    'a',
    'slow',
    {},
    { timeoutMs: 1000, onProgress: (p) => (seen.push(p.progress), gotProgress()) },
  );
  await running;
  for (const n of [1, 2]) {
    t.mock.timers.tick(900);
    const heard = new Promise<void>((res) => (gotProgress = res));
    await progress(n);
    await heard;
  }
  t.mock.timers.tick(900); // 2700 ms in all, never 1000 without news
  finish();
  assert.deepEqual((await call).content, [{ type: 'text', text: 'done' }]);
  assert.deepEqual(seen, [1, 2]);

  running = new Promise<void>((res) => (started = res));
  const quiet = r.host.callTool('a', 'slow', {}, { timeoutMs: 1000 });
  await running;
  t.mock.timers.tick(1000);
  await assert.rejects(quiet, (e: unknown) => e instanceof HostError && e.code === 'request-timeout');
  finish();
});
