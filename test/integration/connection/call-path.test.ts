/**
 * What a plain tool call carries and checks, on both eras (fixtures/servers/call-path-server.mjs):
 * the SDK keeps no second copy of the lists the host keeps (except the tool list of a 2026-07-28
 * Streamable HTTP connection, which it reads for header mirroring), structured output is checked
 * against the tool's output schema all the same, and a 2026-07-28 request declares the tasks
 * extension (to a server that offers it) without the 2025-11-25 `tasks` capability.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { McpHost } from '../../../src/core/host.js';
import type { HostOptions } from '../../../src/core/host-api.js';
import { eraHosts } from './era-hosts.js';
import { FIXTURES, def, startPortServer, textOf } from './helpers.js';
import { serverScript } from '../../support/fixture-servers.js';

const SERVER = serverScript(path.join(FIXTURES, 'call-path-server.mjs'));
const hosts = eraHosts('call-path', { env: {} });
const stops: (() => Promise<void>)[] = [];
after(() => Promise.all(stops.map((stop) => stop())));

async function connect(
  config: { type: 'stdio'; command: string; args: string[] } | { type: 'http'; url: string },
  o: Partial<HostOptions>,
  protocolVersion: string,
): Promise<McpHost> {
  const { host } = hosts.newHost(o);
  host.setDefinitions([def('s', config)]);
  await hosts.connected(host, 's', protocolVersion);
  return host;
}

const stdio = { type: 'stdio' as const, command: process.execPath, args: [SERVER] };
const cases: [string, () => Promise<McpHost>][] = [
  ['stdio, 2026-07-28', () => connect(stdio, {}, '2026-07-28')],
  ['stdio, 2025-11-25', () => connect(stdio, { eraNegotiation: 'legacy' }, '2025-11-25')],
  [
    'Streamable HTTP, 2026-07-28',
    async () => {
      const s = await startPortServer('call-path-server.mjs', ['--http'], '/mcp');
      stops.push(() => s.stop());
      return connect({ type: 'http', url: s.url }, {}, '2026-07-28');
    },
  ],
];

for (const [label, open] of cases) {
  describe(label, () => {
    // One connected host per case, made before its tests; each test makes the state it checks.
    let host: McpHost;
    before(async () => {
      host = await open();
    });

    test('structured output is checked against the output schema', async () => {
      const good = await host.callTool('s', 'shaped', { mode: 'good' });
      assert.deepEqual(good.structuredContent, { n: 1 });
      await assert.rejects(host.callTool('s', 'shaped', { mode: 'bad' }), /does not match the tool's output schema/);
      await assert.rejects(host.callTool('s', 'shaped', { mode: 'missing' }), /did not return structured content/);
      const failed = await host.callTool('s', 'shaped', { mode: 'error' });
      assert.equal(failed.isError, true);
    });

    test('a listing through the client reaches the server unless the SDK reads the list from its cache', async () => {
      const before = Number(textOf(await host.callTool('s', 'lists', {})));
      await host.withClient('s', 'listing', (client) => client.listTools());
      const after = Number(textOf(await host.callTool('s', 'lists', {})));
      // The server's list is fresh for ten minutes (ttlMs): a copy in the SDK's cache answers instead.
      assert.equal(after - before, label === 'Streamable HTTP, 2026-07-28' ? 0 : 1);
    });

    test("a call is checked against the host's list, not a later copy the SDK holds", async () => {
      // A listing through the client leaves the server's second list (where `shaped` wants a string)
      // in the SDK's cache, except on Streamable HTTP 2026-07-28, where the SDK's copy is the one list (from cache).
      await host.withClient('s', 'listing', (client) => client.listTools());
      const good = await host.callTool('s', 'shaped', { mode: 'good' });
      assert.deepEqual(good.structuredContent, { n: 1 });
    });
  });
}

async function requestCapabilities(extraArgs: string[]): Promise<Record<string, unknown>> {
  const host = await connect({ ...stdio, args: [SERVER, ...extraArgs] }, {}, '2026-07-28');
  return JSON.parse(textOf(await host.callTool('s', 'capabilities', {}))) as Record<string, unknown>;
}

test('a 2026-07-28 request declares the tasks extension, not the 2025-11-25 tasks capability', async () => {
  const caps = await requestCapabilities(['--tasks-extension']);
  assert.equal('tasks' in caps, false, JSON.stringify(caps));
  assert.deepEqual((caps.extensions as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/tasks'], {});
});

test('a 2026-07-28 request leaves the tasks extension out for a server that does not offer it', async () => {
  const caps = await requestCapabilities([]);
  assert.deepEqual(caps, {}, JSON.stringify(caps));
});
