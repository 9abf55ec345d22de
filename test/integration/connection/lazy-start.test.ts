/**
 * `startServers: 'onFirstUse'` with real stdio servers that record each start in a file: with a
 * cache from an earlier run nothing is spawned until a call, the call starts exactly one process
 * and gets the right result, concurrent first calls share that process; with nothing cached, or
 * with the setting off, the server starts with the host as before; a server held back (not
 * approved) is neither shown from the cache nor started by a call.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHost, type McpHost } from '../../../src/core/host.js';
import type { HostOptions } from '../../../src/core/host-api.js';
import { ListCache } from '../../../src/core/connection/list-cache.js';
import { systemClock } from '../../../src/core/ports.js';
import { MemoryKeyValueStore } from '../../support/fakes.js';
import { MemoryLogger, stdioDef, tempDir, waitFor } from './helpers.js';

const hosts: McpHost[] = [];
after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
});

function newHost(kv: MemoryKeyValueStore, startServers?: HostOptions['startServers']): McpHost {
  const host = createHost({
    logger: new MemoryLogger(),
    blobDir: tempDir('lazy-start'),
    env: {},
    listCache: new ListCache(kv, systemClock),
    ...(startServers ? { startServers } : {}),
  });
  hosts.push(host);
  return host;
}

/** Processes of the fixture that started, from its record file. */
function starts(file: string): number {
  if (!fs.existsSync(file)) return 0;
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('start ')).length;
}

/** A first run that connects once and fills the cache; returns the record file and the definition. */
async function cachedServer(name: string, kv: MemoryKeyValueStore) {
  const record = path.join(tempDir('lazy-record'), 'events');
  const d = stdioDef(name, ['--record', record]);
  const first = newHost(kv);
  first.setDefinitions([d]);
  await waitFor(first, name, (s) => s.state.kind === 'connected');
  await first.dispose();
  assert.equal(starts(record), 1);
  return { record, d };
}

describe('lazy start (startServers: onFirstUse)', { timeout: 120_000 }, () => {
  test('with a cache, nothing starts with the host; the first call starts one process and runs', async () => {
    const kv = new MemoryKeyValueStore();
    const { record, d } = await cachedServer('lazy-a', kv);
    const host = newHost(kv, 'onFirstUse');
    host.setDefinitions([d]);
    await host.whenSettled(); // settled at once: a server waiting for its first use is not busy
    const idle = host.server(d.name)!;
    assert.deepEqual(idle.state, { kind: 'disabled', reason: 'on-first-use', message: 'starts on first use' });
    assert.equal(idle.cached, true);
    assert.ok(
      idle.tools.some((t) => t.name === 'echo'),
      'the cached tools are shown',
    );
    assert.equal(host.pid(d.name), undefined);
    assert.equal(starts(record), 1, 'no process at start');

    const r = await host.callTool(d.name, 'echo', { text: 'hi' });
    assert.deepEqual(r.content, [{ type: 'text', text: 'echo: hi' }]);
    assert.equal(starts(record), 2, 'the call started exactly one process');
    assert.equal(host.server(d.name)!.state.kind, 'connected');
    assert.equal(host.server(d.name)!.cached, undefined, 'live lists replace the cached ones');
  });

  test('concurrent first calls start one process', async () => {
    const kv = new MemoryKeyValueStore();
    const { record, d } = await cachedServer('lazy-b', kv);
    const host = newHost(kv, 'onFirstUse');
    host.setDefinitions([d]);
    const results = await Promise.all(['1', '2', '3', '4', '5'].map((n) => host.callTool(d.name, 'echo', { text: n })));
    assert.deepEqual(
      results.map((r) => r.content),
      ['1', '2', '3', '4', '5'].map((n) => [{ type: 'text', text: `echo: ${n}` }]),
    );
    assert.equal(starts(record), 2, 'one process for all five first calls');
  });

  test('with nothing cached the server starts with the host, so the cache gets filled', async () => {
    const kv = new MemoryKeyValueStore();
    const record = path.join(tempDir('lazy-record'), 'events');
    const d = stdioDef('lazy-c', ['--record', record]);
    const host = newHost(kv, 'onFirstUse');
    host.setDefinitions([d]);
    assert.equal(host.server(d.name)!.state.kind, 'pending');
    await waitFor(host, d.name, (s) => s.state.kind === 'connected');
    assert.equal(starts(record), 1);
  });

  test('setting off (onStartup, the default): a cached server starts with the host as before', async () => {
    const kv = new MemoryKeyValueStore();
    const { record, d } = await cachedServer('lazy-d', kv);
    const host = newHost(kv);
    host.setDefinitions([d]);
    const early = host.server(d.name)!;
    assert.equal(early.state.kind, 'pending');
    assert.equal(early.cached, true);
    await waitFor(host, d.name, (s) => s.state.kind === 'connected');
    assert.equal(starts(record), 2, 'started without a call');
  });

  test('a held server (not approved) is neither shown from the cache nor started by a call', async () => {
    const kv = new MemoryKeyValueStore();
    const { record, d } = await cachedServer('lazy-f', kv);
    const host = newHost(kv, 'onFirstUse');
    const held = { ...d, admission: { run: false as const, reason: 'not-approved' as const, message: 'not approved' } };
    host.setDefinitions([held]);
    await host.whenSettled();
    const s = host.server(d.name)!;
    assert.notEqual(s.state.kind === 'disabled' && s.state.reason, 'on-first-use', JSON.stringify(s.state));
    assert.equal(s.cached, undefined);
    assert.deepEqual(s.tools, [], 'no cached tools of a server that may not run');
    await assert.rejects(host.callTool(d.name, 'echo', { text: 'x' }));
    assert.equal(starts(record), 1, 'the call started nothing');
  });

  test('a stopped lazy server is stopped: a call does not start it', async () => {
    const kv = new MemoryKeyValueStore();
    const { record, d } = await cachedServer('lazy-e', kv);
    const host = newHost(kv, 'onFirstUse');
    host.setDefinitions([d]);
    await host.stop(d.name);
    await assert.rejects(host.callTool(d.name, 'echo', { text: 'x' }), /stopped/);
    assert.equal(starts(record), 1);
  });
});
