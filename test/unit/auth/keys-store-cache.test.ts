import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAuthKey } from '../../../src/core/auth/keys.js';
import { NEEDS_AUTH_TTL_MS, NeedsAuthCache } from '../../../src/core/auth/needs-auth-cache.js';
import { AuthRecordStore } from '../../../src/core/auth/store.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { FakeClock, MemoryKeyValueStore, MemorySecretStore } from '../../support/fakes.js';

function def(name: string, config: Record<string, unknown>): Pick<ServerDefinition, 'name' | 'config'> {
  return { name, config: config as unknown as ServerDefinition['config'] };
}

test('the key is the server name plus a sha256 of type, url and headers', () => {
  const k = serverAuthKey(
    def('github', { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-A': '1', 'x-b': '2' } }),
  );
  assert.match(k, /^mcp-host\.oauth\/github\/[0-9a-f]{64}$/);
  // Header order and name case do not matter.
  assert.equal(
    k,
    serverAuthKey(
      def('github', { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-B': '2', 'x-a': '1' } }),
    ),
  );
  // Anything that identifies a different account or endpoint does.
  const others = [
    def('github2', { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-A': '1', 'x-b': '2' } }),
    def('github', { type: 'sse', url: 'https://api.example.com/mcp', headers: { 'X-A': '1', 'x-b': '2' } }),
    def('github', { type: 'http', url: 'https://api.example.com/mcp2', headers: { 'X-A': '1', 'x-b': '2' } }),
    def('github', { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-A': '1', 'x-b': '3' } }),
    def('github', { type: 'http', url: 'https://api.example.com/mcp' }),
  ];
  for (const o of others) assert.notEqual(serverAuthKey(o), k);
  // Header values never appear in the key.
  const secret = serverAuthKey(
    def('s', { type: 'http', url: 'https://x/', headers: { Authorization: 'Bearer sekrit-value' } }),
  );
  assert.ok(!secret.includes('sekrit'));
});

test('record updates are serialised: concurrent saves keep every field', async () => {
  const secrets = new MemorySecretStore();
  const store = new AuthRecordStore(secrets);
  await Promise.all([
    store.update('k', (r) => ({ ...r, codeVerifier: 'v' })),
    store.update('k', (r) => ({ ...r, clientSecret: 's' })),
    store.update('k', (r) => ({ ...r, pendingScope: 'a b' })),
  ]);
  assert.deepEqual(await store.read('k'), { codeVerifier: 'v', clientSecret: 's', pendingScope: 'a b' });
  await store.delete('k');
  assert.equal(secrets.map.size, 0);
  secrets.map.set('bad', '{not json');
  assert.deepEqual(await store.read('bad'), {}, 'a corrupt entry reads as signed out');
});

test('needs-auth cache: quiet for 15 minutes after a mark, then probes again', async () => {
  const clock = new FakeClock();
  const kv = new MemoryKeyValueStore();
  const cache = new NeedsAuthCache(kv, clock);
  assert.equal(cache.isFresh('a'), false);
  await cache.mark('a');
  assert.equal(cache.isFresh('a'), true);
  clock.advance(NEEDS_AUTH_TTL_MS - 1);
  assert.equal(cache.isFresh('a'), true);
  clock.advance(1);
  assert.equal(cache.isFresh('a'), false);

  await cache.mark('b');
  await cache.clear('b');
  assert.equal(cache.isFresh('b'), false, 'the user asking clears it');
  // A fresh cache object over the same store sees the marks (they survive a reload).
  await cache.mark('c');
  assert.equal(new NeedsAuthCache(kv, clock).isFresh('c'), true);
});

test('needs-auth cache: concurrent marks are all kept and expired ones dropped on write', async () => {
  const clock = new FakeClock();
  const kv = new MemoryKeyValueStore();
  const cache = new NeedsAuthCache(kv, clock);
  await cache.mark('old');
  clock.advance(NEEDS_AUTH_TTL_MS);
  await Promise.all(['x', 'y', 'z'].map((k) => cache.mark(k)));
  for (const k of ['x', 'y', 'z']) assert.equal(cache.isFresh(k), true, k);
  assert.deepEqual(Object.keys(kv.get<Record<string, number>>('mcpHost.needsAuth')!).sort(), ['x', 'y', 'z']);
});

test('a failed write is reported to its caller only; later reads and writes still work', async () => {
  const secrets = new MemorySecretStore();
  let fail = true;
  const flaky = {
    get: (k: string) => secrets.get(k),
    delete: (k: string) => secrets.delete(k),
    store: async (k: string, v: string) => {
      if (fail) throw new Error('keychain locked');
      await secrets.store(k, v);
    },
  };
  const store = new AuthRecordStore(flaky);
  await assert.rejects(
    store.update('k', () => ({ pendingScope: 'x' })),
    /keychain locked/,
  );
  assert.deepEqual(await store.read('k'), {});
  fail = false;
  await store.update('k', () => ({ pendingScope: 'y' }));
  assert.deepEqual(await store.read('k'), { pendingScope: 'y' });
});
