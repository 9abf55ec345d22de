/**
 * Change notifications on both eras (modern-server.mjs): a tool added at run time refreshes the
 * host's list, and a resource subscription hears each update. On 2026-07-28 both travel on a
 * `subscriptions/listen` stream (listen.ts), over stdio and Streamable HTTP; on 2025-11-25 they are
 * unsolicited. The modern stream is re-opened after it drops and closed on disconnect.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpHost } from '../../../src/core/host.js';
import { gatewayFeatures } from '../../../src/core/gateway/features.js';
import { FakeClock } from '../../support/fakes.js';
import { poll, withDeadline } from '../../support/wait.js';
import { eraHosts } from './era-hosts.js';
import { def, textOf, waitFor } from './helpers.js';

const { newHost, http, stdio, connected } = eraHosts('listen');

const hasTool = (host: McpHost, server: string, tool: string) =>
  host.server(server)?.tools.some((t) => t.name === tool) ?? false;

/** A run-time tool reaches the host's list, and a subscription hears each update until disposed. */
async function notificationsArrive(host: McpHost, name: string): Promise<void> {
  assert.equal(hasTool(host, name, 'late-1'), false);
  assert.equal(textOf(await host.callTool(name, 'add-tool', { name: 'late-1' })), 'added late-1');
  await waitFor(host, name, (s) => s.tools.some((t) => t.name === 'late-1'), 30_000);

  const updates: string[] = [];
  let heard: () => void = () => {};
  const sub = await gatewayFeatures(host).subscribe(name, 'fixture://ticker', () => {
    updates.push('updated');
    heard();
  });
  for (let i = 1; i <= 2; i++) {
    const next = new Promise<void>((resolve) => (heard = resolve));
    assert.equal(textOf(await host.callTool(name, 'tick', {})), `tick ${i}`);
    await withDeadline(next, `resource update ${i} from ${name}`);
  }
  const read = await host.readResource(name, 'fixture://ticker');
  assert.match(JSON.stringify(read.contents), /tick 2/, 'a read after an update is not served from the cache');
  sub.dispose();
}

describe('change notifications and resource subscriptions', () => {
  test('modern stdio (serveStdio): through subscriptions/listen', async () => {
    const { host } = newHost();
    host.setDefinitions([stdio('local')]);
    await connected(host, 'local', '2026-07-28');
    await notificationsArrive(host, 'local');
  });

  test('modern Streamable HTTP (legacy: reject): through subscriptions/listen', async () => {
    const s = await http();
    const { host } = newHost();
    host.setDefinitions([def('remote', { type: 'http', url: s.url })]);
    await connected(host, 'remote', '2026-07-28');
    await notificationsArrive(host, 'remote');
  });

  test('legacy stdio (2025-11-25): unsolicited, resources/subscribe', async () => {
    const { host } = newHost({ eraNegotiation: 'legacy' });
    host.setDefinitions([stdio('old')]);
    await connected(host, 'old', '2025-11-25');
    await notificationsArrive(host, 'old');
  });

  test('modern HTTP: a dropped stream is re-opened on the same connection, and the gap is caught up', async () => {
    // The stream's socket is cut while the server stays up (a proxy or network drop): restarting the
    // server instead raced the host's re-open against the new process's start under load, and a
    // re-open that finds nobody listening may end the connection, which this test is not about.
    const server = await http();
    const { host, log } = newHost();
    host.setDefinitions([def('remote', { type: 'http', url: server.url })]);
    await connected(host, 'remote', '2026-07-28');
    const state = host.server('remote')!.state;
    const connectedAt = state.kind === 'connected' ? state.connectedAt : 0;
    const ended = log.nextLine(/subscriptions\/listen stream ended/);
    assert.equal(textOf(await host.callTool('remote', 'drop-listen', {})), '1', 'one stream was open');
    await ended;
    assert.equal(textOf(await host.callTool('remote', 'add-tool', { name: 'after-drop' })), 'added after-drop');
    await waitFor(host, 'remote', (s) => s.tools.some((t) => t.name === 'after-drop'), 30_000);
    const now = host.server('remote')!.state;
    assert.equal(now.kind === 'connected' && now.connectedAt, connectedAt, 'no reconnect: the stream alone came back');
    await poll(
      'one open stream on the server',
      30_000,
      async () => (textOf(await host.callTool('remote', 'listeners', {})) === '1' ? true : undefined),
      50,
    );
  });

  test('modern HTTP: restarts leave exactly one open stream on the server', async () => {
    const s = await http();
    const { host } = newHost();
    host.setDefinitions([def('remote', { type: 'http', url: s.url })]);
    await connected(host, 'remote', '2026-07-28');
    for (let i = 0; i < 3; i++) {
      await host.restart('remote');
      await connected(host, 'remote', '2026-07-28');
    }
    // The server drops a closed stream's listener once it sees the cancel or the socket end.
    await poll(
      'the old streams closed',
      30_000,
      async () => (textOf(await host.callTool('remote', 'listeners', {})) === '1' ? true : undefined),
      50,
    );
    await host.dispose();
    const probe = newHost().host;
    probe.setDefinitions([def('probe', { type: 'http', url: s.url })]);
    await connected(probe, 'probe', '2026-07-28');
    assert.equal(textOf(await probe.callTool('probe', 'listeners', {})), '1', 'only the new host’s stream is open');
  });

  test('modern HTTP: a server that refuses subscriptions/listen is not asked again and again', async () => {
    const s = await http(undefined, ['--refuse-listen']);
    const clock = new FakeClock();
    const { host, log } = newHost({ clock });
    host.setDefinitions([def('remote', { type: 'http', url: s.url })]);
    await connected(host, 'remote', '2026-07-28');
    assert.match(await log.nextLine(/subscriptions\/listen failed/), /no listen here \(not retried\)/);
    assert.equal(clock.pending(), 0, 'no re-open timer');
  });
});
