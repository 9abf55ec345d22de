/**
 * One server's entry (server-entry.ts) as the host drives it: its lists follow list_changed, and a
 * closed connection drops them and connects again lazily on the next use. In-process servers with
 * a fake clock (host-rig.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { echoServer, inProcess, newHost } from './host-rig.js';
import { until } from './helpers.js';

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
