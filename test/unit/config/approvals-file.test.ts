/**
 * The approval store both front ends open (core/config/approvals-file.ts): one per-workspace file,
 * so a decision made in the editor is seen by the CLI at once and the other way round, and the
 * editor's older workspaceState decisions move into it without asking anyone again.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { sharedServerApprovals, SHARED_APPROVALS_KEY } from '../../../src/core/config/approvals-file.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { workspaceStateFile } from '../../../src/core/tools/index.js';
import { tempTree } from './helpers.js';

function def(name: string, hash: string): ServerDefinition {
  return {
    name,
    config: { type: 'stdio', command: 'srv', args: [] },
    source: { scope: 'project', file: '/ws/.mcp.json', jsonPath: ['mcpServers', name] },
    signature: `stdio:${name}`,
    hash,
    approvalHash: hash,
  };
}

test('a decision written through one opening is read by another opened before it (editor ↔ CLI)', async (t) => {
  const dir = await tempTree(t);
  const env = { MCP_HOST_CONFIG_DIR: `${dir}/cfg` };
  const editor = sharedServerApprovals(`${dir}/ws`, env);
  const cli = sharedServerApprovals(`${dir}/ws`, env);
  assert.equal(cli.status('a', 'h1'), 'unknown');
  await editor.approve([def('a', 'h1')]);
  assert.equal(cli.status('a', 'h1'), 'approved');
  assert.equal(cli.status('a', 'h2'), 'changed');
  await cli.deny([def('b', 'h3')]);
  assert.equal(editor.status('b', 'h3'), 'denied');
  assert.equal(editor.status('a', 'h1'), 'approved', 'the other front end’s write keeps this one’s decision');
  const file = workspaceStateFile(env.MCP_HOST_CONFIG_DIR, `${dir}/ws`);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const onDisk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, { hash: string }>>;
  assert.deepEqual(Object.keys(onDisk[SHARED_APPROVALS_KEY]!).sort(), ['a', 'b']);
  assert.equal(sharedServerApprovals(`${dir}/other`, env).status('a', 'h1'), 'unknown', 'keyed by workspace');
});

test('adopt takes the editor’s old workspaceState decisions once, keeps newer ones, skips damaged records', async (t) => {
  const dir = await tempTree(t);
  const env = { MCP_HOST_CONFIG_DIR: `${dir}/cfg` };
  const store = sharedServerApprovals(`${dir}/ws`, env);
  await store.approve([def('kept', 'new')]);
  const old = {
    moved: { hash: 'm1', decision: 'approved', at: 5 },
    refused: { hash: 'r1', decision: 'denied', at: 6 },
    kept: { hash: 'old', decision: 'denied', at: 1 },
    broken: { hash: 7, decision: 'approved' },
  };
  // As JSON.parse reads it from a file: "__proto__" is an own key there, a server name like any other.
  const parsed: unknown = JSON.parse(
    JSON.stringify(old).replace(/^\{/, '{"__proto__":{"hash":"p","decision":"approved","at":1},'),
  );
  assert.equal(await store.adopt(parsed), 3);
  const fresh = sharedServerApprovals(`${dir}/ws`, env);
  assert.equal(fresh.status('moved', 'm1'), 'approved');
  assert.equal(fresh.status('refused', 'r1'), 'denied');
  assert.equal(fresh.status('kept', 'new'), 'approved');
  assert.equal(fresh.status('broken', '7'), 'unknown');
  assert.equal(fresh.status('__proto__', 'p'), 'approved');
  assert.equal(await fresh.adopt(undefined), 0);
  assert.equal(await fresh.adopt('not an object'), 0);
});
