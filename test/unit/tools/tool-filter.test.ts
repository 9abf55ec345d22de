/** ToolFilter over the per-workspace state file: what is stored, who sees it, bad data. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { DISABLED_TOOLS_KEY, ToolFilter } from '../../../src/core/tools/tool-filter.js';
import { WorkspaceStateStore, workspaceStateFile } from '../../../src/core/tools/workspace-state.js';

const tools = [
  { server: 'a', name: 'echo' },
  { server: 'a', name: 'add' },
  { server: 'b', name: 'echo' },
];

test('everything is enabled until switched off; switching off is per server and tool', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-tf-'));
  const f = new ToolFilter(new WorkspaceStateStore(dir, '/work/project'));
  assert.deepEqual(f.filter(tools), tools);
  const changes: unknown[] = [];
  f.onDidChange((c) => changes.push(c));
  await f.setEnabled('a', 'echo', false);
  assert.equal(f.isEnabled('a', 'echo'), false);
  assert.equal(f.isEnabled('b', 'echo'), true, 'the same tool name on another server stays on');
  assert.deepEqual(f.filter(tools), [tools[1], tools[2]]);
  await f.setEnabled('a', 'echo', false);
  assert.equal(changes.length, 1, 'no event for a no-op');
  await f.setEnabled('a', 'echo', true);
  assert.deepEqual(f.filter(tools), tools);
  assert.deepEqual(changes, [
    { server: 'a', tool: 'echo', enabled: false },
    { server: 'a', tool: 'echo', enabled: true },
  ]);
});

test('the choice is in a 0600 file per workspace that another process (the CLI) reads', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-tf-'));
  await new ToolFilter(new WorkspaceStateStore(dir, '/work/project')).setEnabled('a', 'add', false);
  const file = workspaceStateFile(dir, '/work/project');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);
  const onDisk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  assert.deepEqual(onDisk[DISABLED_TOOLS_KEY], { a: ['add'] });
  assert.equal(onDisk.workspace, '/work/project');
  assert.equal(
    new ToolFilter(new WorkspaceStateStore(dir, '/work/project')).isEnabled('a', 'add'),
    false,
    'a second reader sees it',
  );
  assert.equal(
    new ToolFilter(new WorkspaceStateStore(dir, '/work/other')).isEnabled('a', 'add'),
    true,
    'another workspace does not',
  );
});

test('a corrupt or hand-edited file hides nothing it cannot name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-tf-'));
  const file = workspaceStateFile(dir, '/w');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ [DISABLED_TOOLS_KEY]: { a: ['echo', 3, null], b: 'add' } }));
  const f = new ToolFilter(new WorkspaceStateStore(dir, '/w'));
  assert.deepEqual(f.filter(tools), [tools[1], tools[2]]);
  writeFileSync(file, '{not json');
  assert.deepEqual(new ToolFilter(new WorkspaceStateStore(dir, '/w')).filter(tools), tools);
});
