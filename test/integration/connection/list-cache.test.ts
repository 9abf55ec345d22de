/**
 * The list cache across restarts, with real stdio servers: a second host shows the first run's
 * tools at once, marked cached, until the live lists replace them; a changed definition shows
 * nothing cached; a call waits for the connection and never reaches a tool the live server lacks;
 * a server that fails drops what it showed.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { HostError } from '../../../src/core/connection/errors.js';
import { ListCache, LIST_CACHE_KEY } from '../../../src/core/connection/list-cache.js';
import { systemClock } from '../../../src/core/ports.js';
import { MemoryKeyValueStore } from '../../support/fakes.js';
import { def, MemoryLogger, stdioDef, tempDir, waitFor } from './helpers.js';

const hosts: McpHost[] = [];
after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
});

function newHost(kv: MemoryKeyValueStore): McpHost {
  const host = createHost({
    logger: new MemoryLogger(),
    blobDir: tempDir('list-cache'),
    env: {},
    listCache: new ListCache(kv, systemClock),
  });
  hosts.push(host);
  return host;
}

describe('list cache across restarts', { timeout: 120_000 }, () => {
  test('a restart shows the last tools at once, marked cached, then the live ones', async () => {
    const kv = new MemoryKeyValueStore();
    const d = stdioDef('cached-a', ['--tools', '3']);
    const first = newHost(kv);
    first.setDefinitions([d]);
    const live = await waitFor(first, d.name, (s) => s.state.kind === 'connected');
    assert.equal(live.cached, undefined);
    await first.dispose();
    assert.ok(kv.map.get(LIST_CACHE_KEY), 'lists kept');

    const second = newHost(kv);
    second.setDefinitions([d]);
    // Nothing can have connected yet: setDefinitions only starts the process.
    const early = second.server(d.name)!;
    assert.equal(early.state.kind, 'pending');
    assert.equal(early.cached, true);
    assert.deepEqual(
      early.tools.map((t) => t.name),
      live.tools.map((t) => t.name),
    );
    const after = await waitFor(second, d.name, (s) => s.state.kind === 'connected');
    assert.equal(after.cached, undefined, 'live lists replace the cached ones');
    assert.equal(after.tools.length, live.tools.length);
  });

  test('a changed definition shows nothing cached', async () => {
    const kv = new MemoryKeyValueStore();
    const first = newHost(kv);
    first.setDefinitions([stdioDef('cached-b', ['--tools', '2'])]);
    await waitFor(first, 'cached-b', (s) => s.state.kind === 'connected');
    await first.dispose();
    const second = newHost(kv);
    second.setDefinitions([stdioDef('cached-b', ['--tools', '5'])]);
    const early = second.server('cached-b')!;
    assert.equal(early.cached, undefined);
    assert.equal(early.tools.length, 0);
  });

  test('a call waits for the connection and never calls a tool the live server no longer has', async () => {
    const kv = new MemoryKeyValueStore();
    const d = stdioDef('cached-c');
    const stale = new ListCache(kv, systemClock);
    await stale.put(d, {
      tools: [
        { name: 'ghost', inputSchema: { type: 'object' } },
        { name: 'echo', inputSchema: { type: 'object' } },
      ],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    });
    const host = newHost(kv);
    host.setDefinitions([d]);
    assert.deepEqual(
      host.server(d.name)!.tools.map((t) => t.name),
      ['ghost', 'echo'],
    );
    await assert.rejects(
      host.callTool(d.name, 'ghost', {}),
      (err: unknown) => err instanceof HostError && err.code === 'unknown-tool',
    );
    const r = await host.callTool(d.name, 'echo', { text: 'hi' });
    assert.match(JSON.stringify(r), /hi/);
    const now = host.server(d.name)!;
    assert.equal(now.cached, undefined);
    assert.ok(!now.tools.some((t) => t.name === 'ghost'));
  });

  test('a server that fails to start drops the cached lists it showed', async () => {
    const kv = new MemoryKeyValueStore();
    const d = def('cached-d', { type: 'stdio', command: '/nonexistent/mcp-server-binary', args: [] });
    await new ListCache(kv, systemClock).put(d, {
      tools: [{ name: 'old', inputSchema: { type: 'object' } }],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    });
    const host = newHost(kv);
    host.setDefinitions([d]);
    assert.equal(host.server(d.name)!.cached, true);
    const failed = await waitFor(host, d.name, (s) => s.state.kind === 'failed');
    assert.equal(failed.cached, undefined);
    assert.equal(failed.tools.length, 0);
  });

  test('clear drops every kept list', async () => {
    const kv = new MemoryKeyValueStore();
    const cache = new ListCache(kv, systemClock);
    const d = stdioDef('cached-e');
    await cache.put(d, { tools: [], resources: [], resourceTemplates: [], prompts: [] });
    assert.ok(cache.get(d));
    await cache.clear();
    assert.equal(cache.get(d), undefined);
  });
});
