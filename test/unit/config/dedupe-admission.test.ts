/**
 * Dedupe runs after admission: a definition held back (awaiting approval, untrusted, denied by
 * policy) never shadows a lower-scope definition of the same server that would run.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { heldReason, runs } from '../../../src/core/config/admit.js';
import { loadConfig } from '../../../src/core/config/load.js';
import type { LoadedConfig } from '../../../src/core/config/types.js';
import type { KeyValueStore } from '../../../src/core/ports.js';
import { ServerApprovals } from '../../../src/core/config/approvals.js';
import { byCode, json, names, tempTree } from './helpers.js';

function memory(): KeyValueStore {
  const m = new Map<string, unknown>();
  return { get: <T>(k: string) => m.get(k) as T | undefined, update: async (k, v) => void m.set(k, v) };
}

const running = (c: LoadedConfig): string[] => c.servers.filter(runs).map((s) => s.name);
const same = { command: 'npx', args: ['-y', 'server-everything'] };

test('a project server awaiting approval keeps its row and leaves the user server with the same command running', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { proj: same } }) });
  const approvals = new ServerApprovals(memory());
  const opts = { folders: [dir], env: {}, userServers: { mine: same }, approvals };
  const before = await loadConfig(opts);
  assert.deepEqual(names(before), ['mine', 'proj']);
  assert.deepEqual(running(before), ['mine']);
  assert.equal(heldReason(before.servers.find((s) => s.name === 'proj')), 'not-approved');
  assert.equal(
    byCode(before, 'duplicate').length,
    0,
    'a held server displaces nothing, so nothing is reported as a duplicate',
  );

  // Approved, the project server runs and wins: the user one is dropped as its duplicate, as before.
  await approvals.approve(before.servers.filter((s) => s.name === 'proj'));
  const after = await loadConfig(opts);
  assert.deepEqual(running(after), ['proj']);
  assert.deepEqual(names(after), ['proj']);
  assert.deepEqual(
    byCode(after, 'duplicate').map((p) => p.server),
    ['mine'],
  );
});

test('an untrusted workspace or a policy deny on the higher scope does not hide the user server', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({ mcpServers: { proj: same, denied: { url: 'https://r.test/mcp' } } }),
    'managed.json': json({ deniedServers: [{ serverName: 'denied' }] }),
  });
  const untrusted = await loadConfig({ folders: [dir], env: {}, userServers: { mine: same }, trusted: false });
  assert.deepEqual(running(untrusted), ['mine']);
  assert.equal(heldReason(untrusted.servers.find((s) => s.name === 'proj')), 'untrusted');

  const policy = await loadConfig({
    folders: [dir],
    env: {},
    userServers: { remote: { type: 'http', url: 'https://r.test/mcp' } },
    managedPath: join(dir, 'managed.json'),
  });
  assert.deepEqual(running(policy), ['remote', 'proj']);
  assert.equal(heldReason(policy.servers.find((s) => s.name === 'denied')), 'policy');
  assert.equal(byCode(policy, 'duplicate').length, 0);
});
