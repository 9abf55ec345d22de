/**
 * The host (mcp-host.ts): its servers by name, the definition diff and admission, disposal and
 * settings, on in-process servers with a fake clock (host-rig.ts). One server's state machine is
 * server-connection.test.ts, its lists and lazy connect server-entry.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { echoServer, inProcess, newHost } from './host-rig.js';
import { until } from './helpers.js';

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
