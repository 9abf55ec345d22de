/**
 * Nothing a server entry points at is read before the server is admitted (issue 12, item 13): a
 * workspace file could otherwise make the editor open any path (a device, a FIFO, a network
 * mount) just by being opened. The env file here is a FIFO: opening it for reading blocks until a
 * writer comes, so whether the loader opened it is observable without timing: our own blocking
 * open for writing completes exactly when a reader has it open.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { heldReason } from '../../../src/core/config/admit.js';
import { loadConfig } from '../../../src/core/config/load.js';
import type { LoadedConfig } from '../../../src/core/config/types.js';
import { createHost } from '../../../src/core/host.js';
import { nullLogger, type KeyValueStore } from '../../../src/core/ports.js';
import { ServerApprovals } from '../../../src/core/config/approvals.js';
import { serverView } from '../../../src/extension/tree/model.js';

function memory(): KeyValueStore {
  const m = new Map<string, unknown>();
  return { get: <T>(k: string) => m.get(k) as T | undefined, update: async (k, v) => void m.set(k, v) };
}

async function workspaceWithFifo(t: { after(fn: () => Promise<void>): void }): Promise<{ dir: string; fifo: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-host-sec-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const fifo = join(dir, 'secrets.env');
  execFileSync('mkfifo', [fifo]);
  await writeFile(
    join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { sneaky: { command: process.execPath, args: ['-e', ''], envFile: 'secrets.env' } } }),
  );
  return { dir, fifo };
}

test('an unapproved workspace server: its envFile is never opened, and its row says it awaits approval', async (t) => {
  const { dir, fifo } = await workspaceWithFifo(t);
  const approvals = new ServerApprovals(memory());
  const load = loadConfig({ folders: [dir], env: {}, approvals });
  // Resolves when (and only when) someone opens the FIFO for reading.
  const writer = open(fifo, constants.O_WRONLY);
  const first = await Promise.race([load.then((c) => ({ loaded: c })), writer.then((w) => ({ opened: w }))]);
  if ('opened' in first) {
    await first.opened.write('X=1\n');
    await first.opened.close();
    await load;
    assert.fail('the loader opened the env file of a server that was not approved');
  }
  // Release our pending open with a reader of our own, so nothing is left blocked.
  const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  await (await writer).close();
  await reader.close();

  const loaded: LoadedConfig = first.loaded;
  const def = loaded.servers.find((d) => d.name === 'sneaky');
  assert.ok(def, 'the server is listed');
  assert.equal(heldReason(def), 'not-approved');
  assert.ok(!(loaded.files ?? []).includes(fifo), 'an unread env file is not even watched');

  const host = createHost({ logger: nullLogger, blobDir: join(dir, 'blobs') });
  t.after(() => host.dispose());
  host.setDefinitions(loaded.servers);
  await host.whenSettled();
  const snap = host.server('sneaky');
  assert.ok(snap);
  assert.equal(snap.state.kind, 'disabled');
  const row = serverView(snap, (s) => s);
  assert.equal(row.description, 'waiting for your approval');
  assert.equal(row.contextValue, 'mcpServer.not-approved');
});

test('once approved, the same envFile is opened (the FIFO is observed) and, not being a regular file, reported', async (t) => {
  const { dir, fifo } = await workspaceWithFifo(t);
  const approvals = new ServerApprovals(memory());
  const before = await loadConfig({ folders: [dir], env: {}, approvals });
  await approvals.approve(before.servers);
  const load = loadConfig({ folders: [dir], env: {}, approvals });
  // Completes only when the loader has the FIFO open for reading (item 9 then refuses it: only
  // regular files are read, so a FIFO cannot hang the loader).
  const w = await open(fifo, constants.O_WRONLY);
  await w.close();
  const after = await load;
  assert.match(
    after.problems.find((p) => p.server === 'sneaky' && p.code === 'env-file')?.message ?? '',
    /not a regular file/i,
  );
});

test('once approved, a regular envFile is read', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-host-sec-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'secrets.env'), 'FROM_FILE=yes\n');
  await writeFile(
    join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { sneaky: { command: process.execPath, args: ['-e', ''], envFile: 'secrets.env' } } }),
  );
  const approvals = new ServerApprovals(memory());
  const before = await loadConfig({ folders: [dir], env: {}, approvals });
  const unapproved = before.servers.find((d) => d.name === 'sneaky')?.config;
  assert.ok(unapproved?.type === 'stdio' && unapproved.env?.FROM_FILE === undefined, 'not read before approval');
  await approvals.approve(before.servers);
  const after = await loadConfig({ folders: [dir], env: {}, approvals });
  const def = after.servers.find((d) => d.name === 'sneaky');
  assert.ok(def && def.config.type === 'stdio');
  assert.deepEqual(def.admission, { run: true });
  assert.equal(def.config.env?.FROM_FILE, 'yes');
});
