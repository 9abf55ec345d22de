/**
 * A 2026-07-28 server whose list and read results leave out `ttlMs`/`cacheScope`
 * (fixtures/servers/no-cache-hints.mjs, written by hand as servers on other SDKs are): its tools,
 * resources, templates and prompts are shown and its resources read, each result taken as stale
 * (asked again next time), with one warning per method in the server's log, however often it
 * lists. A server that sends the hints is the control: the SDK's cache answers its second listing.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { McpHost } from '../../../src/core/host.js';
import { eraHosts } from './era-hosts.js';
import { FIXTURES, def, startPortServer, textOf, type MemoryLogger } from './helpers.js';

const SCRIPT = 'no-cache-hints.mjs';
const hosts = eraHosts('cache-hints');
const stops: (() => Promise<void>)[] = [];
after(() => Promise.all(stops.map((stop) => stop())));

type Transport = 'stdio' | 'Streamable HTTP';

async function connect(transport: Transport, extra: string[] = []): Promise<{ host: McpHost; log: MemoryLogger }> {
  const { host, log } = hosts.newHost();
  let config;
  if (transport === 'stdio')
    config = { type: 'stdio' as const, command: process.execPath, args: [path.join(FIXTURES, SCRIPT), ...extra] };
  else {
    const s = await startPortServer(SCRIPT, ['--http', ...extra], '/mcp');
    stops.push(() => s.stop());
    config = { type: 'http' as const, url: s.url };
  }
  host.setDefinitions([def('s', config)]);
  await hosts.connected(host, 's', '2026-07-28');
  return { host, log };
}

const hintWarnings = (log: MemoryLogger) => log.messages('warn').filter((l) => /without ttlMs\/cacheScope/.test(l));

async function counts(host: McpHost): Promise<Record<string, number>> {
  return JSON.parse(textOf(await host.callTool('s', 'counts', {}))) as Record<string, number>;
}

/** Each method asked twice through the client as the SDK would (its response cache on). */
const TWICE: [string, (c: Client) => Promise<unknown>][] = [
  ['tools/list', (c) => c.listTools()],
  ['prompts/list', (c) => c.listPrompts()],
  ['resources/list', (c) => c.listResources()],
  ['resources/templates/list', (c) => c.listResourceTemplates()],
  ['resources/read', (c) => c.readResource({ uri: 'hints://note' })],
];

async function askedTwice(host: McpHost): Promise<Record<string, number>> {
  const before = await counts(host);
  for (const [, ask] of TWICE) {
    await host.withClient('s', 'listing', ask);
    await host.withClient('s', 'listing', ask);
  }
  const afterwards = await counts(host);
  return Object.fromEntries(TWICE.map(([m]) => [m, (afterwards[m] ?? 0) - (before[m] ?? 0)]));
}

for (const transport of ['stdio', 'Streamable HTTP'] as const) {
  describe(`${transport}: results without cache hints`, () => {
    let host: McpHost;
    let log: MemoryLogger;
    test('every list is shown', async () => {
      ({ host, log } = await connect(transport));
      const s = host.server('s')!;
      assert.deepEqual(
        s.tools.map((t) => t.name),
        ['echo', 'counts'],
      );
      assert.deepEqual(
        s.resources.map((r) => r.uri),
        ['hints://note'],
      );
      assert.deepEqual(
        s.resourceTemplates.map((r) => r.uriTemplate),
        ['hints://notes/{id}'],
      );
      assert.deepEqual(
        s.prompts.map((p) => p.name),
        ['hello'],
      );
    });

    test('a resource is read', async () => {
      const r = await host.readResource('s', 'hints://note');
      assert.equal(r.contents[0]?.text, 'note at hints://note');
    });

    test('each result is stale: the next listing asks the server again', async () => {
      const asked = await askedTwice(host);
      assert.deepEqual(asked, Object.fromEntries(TWICE.map(([m]) => [m, 2])));
    });

    test('the server log says so once per method, and the state (doctor) names each', () => {
      const warnings = hintWarnings(log);
      assert.equal(warnings.length, 5, warnings.join('\n'));
      for (const [m] of TWICE) assert.equal(warnings.filter((w) => w.includes(`${m} result`)).length, 1, m);
      assert.ok(
        warnings.every((w) => w.startsWith('[s] ')),
        warnings.join('\n'),
      );
      const state = host.server('s')!.state;
      assert.equal(state.kind === 'connected' && state.protocolWarnings?.length, 5, JSON.stringify(state));
    });
  });

  test(`${transport}: a server that sends the hints is cached by them, with no warning`, async () => {
    const { host, log } = await connect(transport, ['--hints']);
    const asked = await askedTwice(host);
    // Fresh for ten minutes: the SDK's cache answers the second listing. Its Streamable HTTP tool
    // list is already there from connecting (header mirroring), so neither listing asks.
    assert.deepEqual(asked, {
      'tools/list': transport === 'stdio' ? 1 : 0,
      'prompts/list': 1,
      'resources/list': 1,
      'resources/templates/list': 1,
      'resources/read': 1,
    });
    assert.deepEqual(hintWarnings(log), []);
    const state = host.server('s')!.state;
    assert.equal(state.kind === 'connected' && state.protocolWarnings, undefined);
  });

  test(`${transport}: a tool without a name is still refused, naming the server`, async () => {
    const { host, log } = await connect(transport, ['--nameless-tool']);
    assert.deepEqual(host.server('s')!.tools, []);
    const refused = log.messages('warn').find((l) => l.includes('listing tools failed'));
    assert.match(refused ?? '', /^\[s\] listing tools failed: .*tools\/list.*name/s);
    // The other lists of the same server are shown.
    assert.deepEqual(
      host.server('s')!.prompts.map((p) => p.name),
      ['hello'],
    );
  });
}
