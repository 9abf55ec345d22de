/** Approval of workspace/project servers, keyed by name + definition hash, and untrusted workspaces. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load.js';
import type { KeyValueStore } from '../../../src/core/ports.js';
import { admit, awaitingApproval, heldReason } from '../../../src/core/config/admit.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { APPROVALS_KEY, needsApproval, ServerApprovals } from '../../../src/core/config/approvals.js';
import { fakeInputs, json, server, tempTree } from './helpers.js';

const message = (d: ServerDefinition): string => (d.admission && !d.admission.run ? d.admission.message : '');

/** In-memory KeyValueStore that round-trips through JSON like VS Code's Memento. */
function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get<T>(key: string) {
      const v = data.get(key);
      return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
    },
    update(key, value) {
      data.set(key, JSON.parse(JSON.stringify(value)));
      return Promise.resolve();
    },
  };
}

test('workspace and project servers need approval; user ones do not; approval survives reloads until the definition changes', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({ mcpServers: { proj: { command: 'node', args: ['p.js'] } } }),
    '.vscode/mcp.json': json({ servers: { ws: { url: 'https://ws.test/mcp' } } }),
  });
  const store = memoryStore();
  const approvals = new ServerApprovals(store);
  const load = () => loadConfig({ folders: [dir], env: {}, approvals, userServers: { mine: { command: 'node' } } });

  const first = await load();
  assert.deepEqual(server(first, 'mine').admission, { run: true });
  assert.ok(needsApproval(server(first, 'proj')));
  assert.ok(!needsApproval(server(first, 'mine')));
  for (const n of ['proj', 'ws']) {
    const d = server(first, n);
    assert.equal(d.config.disabled, undefined, 'admission does not rewrite the config');
    assert.equal(heldReason(d), 'not-approved');
    assert.match(message(d), /starts after you approve it/);
  }
  assert.deepEqual(
    awaitingApproval(first.servers)
      .map((d) => d.name)
      .sort(),
    ['proj', 'ws'],
  );

  await approvals.approve(awaitingApproval(first.servers));
  const second = await load();
  assert.deepEqual(server(second, 'proj').admission, { run: true });
  assert.equal(server(second, 'proj').approvalHash, server(first, 'proj').approvalHash);
  assert.deepEqual(awaitingApproval(second.servers), []);
  // Persisted through the store, not in memory of this instance.
  assert.equal(new ServerApprovals(store).status('proj', server(second, 'proj').approvalHash!), 'approved');

  await writeFile(
    join(dir, '.mcp.json'),
    json({ mcpServers: { proj: { command: 'node', args: ['p.js', '--changed'] } } }),
  );
  const third = await load();
  assert.equal(heldReason(server(third, 'proj')), 'not-approved');
  assert.match(message(server(third, 'proj')), /changed since you approved it/);
  assert.equal(heldReason(server(third, 'ws')), undefined, 'the unchanged server stays approved');
  assert.deepEqual(
    awaitingApproval(third.servers).map((d) => d.name),
    ['proj'],
  );
});

test('a denied server stays off without asking again, until its definition changes', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { proj: { command: 'node' } } }) });
  const approvals = new ServerApprovals(memoryStore());
  const first = await loadConfig({ folders: [dir], env: {}, approvals });
  await approvals.deny(first.servers);
  const second = await loadConfig({ folders: [dir], env: {}, approvals });
  assert.equal(heldReason(server(second, 'proj')), 'not-approved');
  assert.match(message(server(second, 'proj')), /chose not to run/);
  assert.deepEqual(awaitingApproval(second.servers), []);
});

test('inputs of a server waiting for approval are not asked for; after approval they are', async (t) => {
  const dir = await tempTree(t, {
    '.vscode/mcp.json': json({
      inputs: [{ id: 'tok', password: true }],
      servers: { s: { command: 'node', env: { T: '${input:tok}' } } },
    }),
  });
  const approvals = new ServerApprovals(memoryStore());
  const inputs = fakeInputs({ tok: 'v' });
  const first = await loadConfig({ folders: [dir], env: {}, approvals, inputs });
  assert.equal(inputs.calls.length, 0);
  const pending = server(first, 's');
  assert.ok(pending.config.type === 'stdio');
  assert.deepEqual(pending.config.env, { T: '${input:tok}' }, 'shown as written while waiting');
  await approvals.approve([pending]);
  const second = await loadConfig({ folders: [dir], env: {}, approvals, inputs });
  assert.equal(inputs.calls.length, 1);
  const s = server(second, 's');
  assert.ok(s.config.type === 'stdio');
  assert.deepEqual(s.config.env, { T: 'v' });
});

test('untrusted workspace: workspace/project servers disabled with reason untrusted, user servers run, nothing pending', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({ mcpServers: { proj: { command: 'node', args: ['${input:x}'] } } }),
  });
  const inputs = fakeInputs({ x: '1' });
  const approvals = new ServerApprovals(memoryStore());
  const c = await loadConfig({
    folders: [dir],
    env: {},
    trusted: false,
    approvals,
    inputs,
    userServers: { mine: { command: 'node' } },
  });
  assert.equal(heldReason(server(c, 'proj')), 'untrusted');
  assert.match(message(server(c, 'proj')), /not trusted/);
  assert.deepEqual(server(c, 'mine').admission, { run: true });
  assert.equal(inputs.calls.length, 0);
  assert.deepEqual(awaitingApproval(c.servers), []);
});

test('without an approval store (the CLI) project servers run; admit applies the same rules to the same definitions', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { proj: { command: 'node' } } }) });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(server(c, 'proj').admission, { run: true });
  const [untrusted] = admit(c.servers, { trusted: false });
  assert.equal(heldReason(untrusted), 'untrusted');
  assert.deepEqual(c.servers[0].admission, { run: true }, 'the input is not mutated');
  const approvals = new ServerApprovals(memoryStore());
  assert.equal(heldReason(admit(c.servers, { trusted: true, approvals })[0]), 'not-approved');
  await approvals.approve(c.servers);
  assert.deepEqual(admit(c.servers, { trusted: true, approvals })[0].admission, { run: true });
});

test('a damaged store is treated as no decision', () => {
  const store = memoryStore();
  store.data.set(APPROVALS_KEY, { proj: { hash: 5 }, other: 'x' });
  const approvals = new ServerApprovals(store);
  assert.equal(approvals.status('proj', 'h'), 'unknown');
  store.data.set(APPROVALS_KEY, 'garbage');
  assert.equal(approvals.status('proj', 'h'), 'unknown');
});
