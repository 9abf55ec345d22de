/**
 * The server registry every front end runs (editor controller, CLI commands, serve): real config
 * files in a temp folder, a fake clock for the reload debounce and a fake file watcher.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readConfig } from '../../../src/core/config/load.js';
import {
  ServerRegistry,
  type ApprovalPort,
  type ServerRegistryOptions,
} from '../../../src/core/config/server-registry.js';
import { approvalHashOf } from '../../../src/core/config/approvals.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { nullLogger } from '../../../src/core/ports.js';
import { disabledServersFor } from '../../../src/core/tools/index.js';
import { FakeClock } from '../../support/fakes.js';
import { withDeadline } from '../../support/wait.js';
import { json, tempTree, writeFiles } from './helpers.js';

const entry = (name: string) => ({ command: 'node', args: [`${name}.js`] });

/** A registry over `dir`'s .mcp.json, with what it applied and how often it read. */
function rig(dir: string, extra: Partial<ServerRegistryOptions> = {}) {
  const clock = new FakeClock();
  const applied: ServerDefinition[][] = [];
  let reads = 0;
  let onFileChange: (() => void) | undefined;
  const registry = new ServerRegistry({
    log: nullLogger,
    read: async () => {
      reads++;
      return readConfig({ folders: [dir], env: {} });
    },
    apply: (servers) => applied.push(servers),
    trusted: () => true,
    clock,
    watchFiles: (_files, onChange) => {
      onFileChange = onChange;
      return { dispose: () => (onFileChange = undefined) };
    },
    ...extra,
  });
  return {
    registry,
    clock,
    applied,
    reads: () => reads,
    /** What a file watcher reports for an edit. */
    fileChanged: () => onFileChange?.(),
    last: () => applied.at(-1)?.map((d) => `${d.name}:${d.admission?.run ? 'runs' : d.admission?.reason}`),
    nextApply: () =>
      withDeadline(new Promise<void>((resolve) => registry.onDidChange(() => resolve())), 'admission', 5_000),
  };
}

test('a file that turns invalid keeps its servers from the last good read, with the problem shown; fixed, it applies', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: entry('a'), b: entry('b') } }) });
  const r = rig(dir);
  await r.registry.reload();
  assert.deepEqual(r.last(), ['a:runs', 'b:runs']);

  await writeFiles(dir, { '.mcp.json': '{ "mcpServers": { "a": ' });
  await r.registry.reload();
  assert.deepEqual(r.last(), ['a:runs', 'b:runs'], 'a half-typed edit stops nothing');
  assert.ok(r.registry.problems().some((p) => p.code === 'invalid-json' && p.file === join(dir, '.mcp.json')));
  assert.match(r.registry.problems()[0]!.message, /keep running/);

  await writeFiles(dir, { '.mcp.json': json({ mcpServers: { a: entry('a') } }) });
  await r.registry.reload();
  assert.deepEqual(r.last(), ['a:runs'], 'once the file reads again, what it says applies');
  assert.deepEqual(r.registry.problems(), []);
});

test('a burst of file events is one read once the debounce passes on the clock', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: entry('a') } }) });
  const r = rig(dir);
  await r.registry.reload();
  assert.equal(r.reads(), 1);
  for (let i = 0; i < 5; i++) r.fileChanged();
  r.clock.advance(299);
  assert.equal(r.reads(), 1, 'no read before the burst has been quiet for 300 ms');
  const applied = r.nextApply();
  r.clock.advance(1);
  await applied;
  assert.equal(r.reads(), 2);
});

test('reloads asked for during a read coalesce into one more read after it', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: entry('a') } }) });
  const r = rig(dir);
  await Promise.all([r.registry.reload(), r.registry.reload(), r.registry.reload()]);
  assert.equal(r.reads(), 2);
});

test('a server disabled by one front end is held back by another on the same workspace', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: entry('a'), b: entry('b') } }) });
  const env = { MCP_HOST_CONFIG_DIR: join(dir, 'config') };
  // Two processes: the editor's registry and a later CLI run, each with its own view of the file.
  const editor = rig(dir, { disabled: disabledServersFor(dir, env) });
  await editor.registry.reload();
  await editor.registry.setUserDisabled('a', true);
  assert.deepEqual(editor.last(), ['a:user-disabled', 'b:runs']);

  const cli = rig(dir, { disabled: disabledServersFor(dir, env) });
  await cli.registry.reload();
  assert.deepEqual(cli.last(), ['a:user-disabled', 'b:runs']);

  assert.equal(await editor.registry.approveAndStart('a'), undefined, 'Start enables it again');
  await cli.registry.readmit();
  assert.deepEqual(cli.last(), ['a:runs', 'b:runs']);
});

test('with autoStart off the first load waits for Start; Start runs that one server', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: entry('a'), b: entry('b') } }) });
  const r = rig(dir, { autoStart: () => false });
  await r.registry.reload();
  assert.deepEqual(r.last(), ['a:manual', 'b:manual']);
  assert.equal(await r.registry.approveAndStart('b'), undefined);
  assert.deepEqual(r.last(), ['a:manual', 'b:runs']);
  assert.equal(await r.registry.approveAndStart('nope'), 'unknown');
});

test('project servers wait for approval and are asked about once; a server the user just added is approved as written', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': json({ mcpServers: { a: entry('a'), mine: entry('mine') } }) });
  const approved = new Map<string, string>();
  const asked: string[][] = [];
  let prompted: () => void = () => {};
  const promptShown = new Promise<void>((resolve) => (prompted = resolve));
  const approvals: ApprovalPort = {
    status: (name, hash) => (approved.get(name) === hash ? 'approved' : 'unknown'),
    review: async (defs) => {
      asked.push(defs.map((d) => d.name));
      prompted();
      return false;
    },
    approve: async (defs) => {
      for (const d of defs) approved.set(d.name, approvalHashOf(d));
    },
  };
  const r = rig(dir, { approvals });
  r.registry.expectSelfAdded('mine');
  await r.registry.reload();
  assert.deepEqual(r.last(), ['a:not-approved', 'mine:runs']);
  await withDeadline(promptShown, 'the approval prompt', 5_000);
  assert.deepEqual(asked, [['a']]);
});
