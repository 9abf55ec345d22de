/**
 * The host assembly both front ends build from (src/core/host-assembly.ts): a real registry over
 * real config files and a real host; the servers are switched off in their config, so admission
 * holds them and the host lists them without starting a process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readConfig } from '../../src/core/config/load.js';
import type { ServerDefinition } from '../../src/core/config/types.js';
import { assembleHost, type AssemblyParts, type DefinitionsPort } from '../../src/core/host-assembly.js';
import { nullLogger } from '../../src/core/ports.js';
import { json, tempTree, writeFiles } from './config/helpers.js';

const off = (name: string) => ({ command: 'node', args: [`${name}.js`], disabled: true });

/** An assembly over `dir`'s .mcp.json with `definitions` as its link to the host. */
function rig(dir: string, definitions?: AssemblyParts['definitions']) {
  let built = 0;
  const core = assembleHost({
    host: () => ({ logger: nullLogger, blobDir: '/nonexistent-blobs', env: {} }),
    build: () => {
      built++;
      return {
        registry: { log: nullLogger, read: () => readConfig({ folders: [dir], env: {} }), trusted: () => true },
        ...(definitions !== undefined ? { definitions } : {}),
      };
    },
  });
  const applied: string[][] = [];
  core.onDidApply((defs) => applied.push(defs.map((d) => d.name)));
  return { core, applied, built: () => built, names: () => core.host.servers().map((s) => s.name) };
}

test('every admitted list reaches the host by default, once per admission, with onDidApply after it', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: off('a'), b: off('b') } }) });
  const r = rig(dir);
  t.after(() => r.core.dispose());
  assert.equal(r.built(), 1);
  await r.core.registry.reload();
  assert.deepEqual(r.names(), ['a', 'b']);
  assert.deepEqual(r.applied, [['a', 'b']]);
  await writeFiles(dir, { '.mcp.json': json({ mcpServers: { b: off('b') } }) });
  await r.core.registry.reload();
  assert.deepEqual(r.names(), ['b']);
  assert.deepEqual(r.applied, [['a', 'b'], ['b']]);
});

test("'manual': the registry admits but nothing reaches the host, which is made only when used", async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: off('a') } }) });
  const r = rig(dir, 'manual');
  t.after(() => r.core.dispose());
  await r.core.registry.reload();
  assert.deepEqual(
    r.core.registry.definitions().map((d) => d.name),
    ['a'],
  );
  assert.equal(r.core.hasHost, false, 'a command that never uses the host never makes one');
  assert.deepEqual(r.names(), []);
  assert.equal(r.core.hasHost, true);
  assert.deepEqual(r.applied, []);
});

test('the definitions port decides what the host runs; a list still waiting loses to a newer one', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: off('a') } }) });
  let release: () => void = () => {};
  const waiting = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  // The first list waits (as dev mode's does while it reserves debugpy ports); the second does not.
  const port: DefinitionsPort = (defs) => {
    const renamed = defs.map((d): ServerDefinition => ({ ...d, name: `${d.name}-${calls}` }));
    return calls++ === 0 ? waiting.then(() => renamed) : renamed;
  };
  const r = rig(dir, port);
  t.after(() => r.core.dispose());
  await r.core.registry.reload();
  assert.deepEqual(r.names(), [], 'the first list is still waiting');
  await writeFiles(dir, { '.mcp.json': json({ mcpServers: { b: off('b') } }) });
  await r.core.registry.reload();
  assert.deepEqual(r.names(), ['b-1']);
  release();
  await waiting;
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(r.names(), ['b-1'], 'the older list, done late, does not replace the newer one');
  assert.deepEqual(r.applied, [['b-1']]);
});
