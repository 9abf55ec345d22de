import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RegistryClient, RegistryError } from '../../../src/core/registry/client.js';
import { registrySettings } from '../../../src/core/config/registry-settings.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeRegistry, type FakeRegistry } from '../../fixtures/registry/fake-registry.js';

/** A port nothing listens on: bind port 0, note it, close. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('registry client against a local registry', () => {
  let reg: FakeRegistry;
  before(async () => {
    reg = await startFakeRegistry({ pageSize: 4 });
  });
  after(() => reg.close());

  it('pages through every server with the cursor; malformed entries are skipped with a reason', async () => {
    const c = new RegistryClient({ baseUrl: `${reg.url}/` });
    const names: string[] = [];
    const skipped: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await c.search('', { cursor, limit: 4 });
      names.push(...page.servers.map((s) => s.name));
      skipped.push(...page.skipped);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.equal(names.length, 7);
    assert.ok(names.includes('io.github.example/half-broken'));
    assert.equal(skipped.length, 3);
    assert.ok(reg.requests.every((r) => r.includes('version=latest')));
  });

  it('search sends the query and returns the matches', async () => {
    const page = await new RegistryClient({ baseUrl: reg.url }).search('weather');
    assert.deepEqual(
      page.servers.map((s) => s.name),
      ['io.github.example/weather'],
    );
    assert.ok(reg.requests.some((r) => r.includes('search=weather')));
  });

  it('get reads one server by name (URL-encoded); an unknown one is not-found', async () => {
    const c = new RegistryClient({ baseUrl: reg.url });
    const s = await c.get('com.example/remote-api');
    assert.equal(s.remotes.length, 2);
    await assert.rejects(
      c.get('com.example/nope'),
      (e: unknown) =>
        e instanceof RegistryError && e.code === 'not-found' && /no server named "com.example\/nope"/.test(e.message),
    );
    assert.ok(reg.requests.includes('/v0.1/servers/com.example%2Fremote-api/versions/latest'));
  });
});

describe('a registry that serves only the list', () => {
  it('get finds the server by searching for its exact name', async () => {
    const reg = await startFakeRegistry({ listOnly: true });
    try {
      const c = new RegistryClient({ baseUrl: reg.url });
      assert.equal((await c.get('io.github.example/weather')).version, '0.5.0');
      await assert.rejects(
        c.get('io.github.example/wea'),
        (e: unknown) => e instanceof RegistryError && e.code === 'not-found',
      );
    } finally {
      await reg.close();
    }
  });
});

describe('a registry that misbehaves gives a clear error', () => {
  it('slow: times out with a message naming the registry', async () => {
    const slow = await startFakeRegistry({ delayMs: 5_000 });
    try {
      await assert.rejects(
        new RegistryClient({ baseUrl: slow.url, timeoutMs: 200 }).search('x'),
        (e: unknown) => e instanceof RegistryError && e.code === 'timeout' && e.message.includes(slow.url),
      );
    } finally {
      await slow.close();
    }
  });

  it('down: unreachable, with the connection error', async () => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    await assert.rejects(
      new RegistryClient({ baseUrl: url }).search(''),
      (e: unknown) => e instanceof RegistryError && e.code === 'unreachable' && /ECONNREFUSED/.test(e.message),
    );
  });

  it('not JSON / not a registry: invalid-response', async () => {
    const broken = await startFakeRegistry({ breakJson: true });
    try {
      await assert.rejects(
        new RegistryClient({ baseUrl: broken.url }).search(''),
        (e: unknown) => e instanceof RegistryError && e.code === 'invalid-response',
      );
    } finally {
      await broken.close();
    }
    const other = await startFakeRegistry({ servers: [] });
    try {
      // A server that answers JSON without "servers" (here: the 404 body of an unknown path).
      await assert.rejects(
        new RegistryClient({ baseUrl: `${other.url}/elsewhere` }).search(''),
        (e: unknown) => e instanceof RegistryError && e.code === 'not-found',
      );
    } finally {
      await other.close();
    }
  });
});

describe('registry settings', () => {
  it('env beats the setting; the managed file turns the registry off or pins its URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-reg-'));
    try {
      assert.equal((await registrySettings({ settingUrl: 'https://a.example', env: {} })).url, 'https://a.example');
      assert.equal(
        (
          await registrySettings({
            settingUrl: 'https://a.example',
            env: { MCP_HOST_REGISTRY_URL: 'https://b.example' },
          })
        ).url,
        'https://b.example',
      );
      assert.equal((await registrySettings({ env: {} })).url, 'https://registry.modelcontextprotocol.io');
      const managed = join(dir, 'managed.json');
      await writeFile(managed, '{ // admin\n "registry": { "enabled": false } }');
      const off = await registrySettings({ env: { MCP_HOST_REGISTRY_URL: 'https://b.example' }, managedPath: managed });
      assert.equal(off.enabled, false);
      assert.match(off.reason!, /administrator/);
      await writeFile(managed, '{ "registry": { "url": "https://internal.example" } }');
      assert.equal(
        (await registrySettings({ env: { MCP_HOST_REGISTRY_URL: 'https://b.example' }, managedPath: managed })).url,
        'https://internal.example',
      );
      await writeFile(managed, '{ broken');
      assert.equal((await registrySettings({ env: {}, managedPath: managed })).enabled, false);
      assert.equal((await registrySettings({ env: { MCP_HOST_REGISTRY_URL: 'file:///etc' } })).enabled, false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
