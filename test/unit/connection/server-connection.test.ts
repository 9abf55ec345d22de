/**
 * One server's connection (server-connection.ts) as the host drives it: a stale attempt cancelled
 * by a restart, the connect timeout on the clock port, a stop during a connect. In-process
 * servers with a fake clock (host-rig.ts); every (phase, event) pair is lifecycle-table.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Transport } from '@modelcontextprotocol/server';
import { echoServer, inProcess, newHost } from './host-rig.js';
import { until } from './helpers.js';

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
