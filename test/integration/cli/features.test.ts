// The client features as the CLI offers them, against server-everything: roots and elicitation
// declared (the same tools as the editor, less sampling), tasks, `--verbose` server logs, `complete`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { EVERYTHING, createHarness, type Harness } from './harness.js';

let h: Harness;
let ws: string;

before(async () => {
  h = await createHarness();
  ws = await h.workspace('features', { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
});

after(async () => {
  await h?.dispose();
});

test('server-everything shows the CLI every tool but the two that need sampling', async () => {
  const r = await h.run(['tools', 'everything', '--json'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  const names = (JSON.parse(r.stdout) as { name: string }[]).map((t) => t.name).sort();
  assert.equal(names.length, 17, names.join(', '));
  for (const n of [
    'get-roots-list',
    'trigger-elicitation-request',
    'trigger-elicitation-request-async',
    'trigger-url-elicitation',
    'simulate-research-query',
  ])
    assert.ok(names.includes(n), n);
  assert.ok(!names.some((n) => n.includes('sampling')));
});

test('roots: the workspace folder', async () => {
  const r = await h.run(['call', 'everything', 'get-roots-list'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(pathToFileURL(ws).href), r.stdout);
});

test('elicitation without a terminal is declined, saying why', async () => {
  const r = await h.run(['call', 'everything', 'trigger-elicitation-request'], { cwd: ws });
  assert.match(r.stderr, /everything asked for input .*declined because stdin is not a terminal/);
  assert.match(r.stdout, /decline/i);
});

test('a task tool runs to its result', async () => {
  const r = await h.run(['call', 'everything', 'simulate-research-query', '--args', '{"topic":"moss"}'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /# Research Report: moss/);
});

test("--verbose prints the server's log messages with their level; without it they stay quiet", async () => {
  const loud = await h.run(['call', 'everything', 'toggle-simulated-logging', '--verbose'], { cwd: ws });
  assert.equal(loud.code, 0, loud.stderr);
  assert.match(
    loud.stderr,
    /^\[everything\] (debug|info|notice|warning|error|critical|alert|emergency) \w+[- ]level[- ]message/im,
  );
  const quiet = await h.run(['call', 'everything', 'toggle-simulated-logging'], { cwd: ws });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /level[- ]message/i);
});

test('complete: prompt arguments (with --context) and resource-template variables', async () => {
  const dept = await h.run(['complete', 'everything', '--prompt', 'completable-prompt', 'department', 'S'], {
    cwd: ws,
  });
  assert.equal(dept.code, 0, dept.stderr);
  assert.equal(dept.stdout, 'Sales\nSupport\n');
  const names = await h.run(
    ['complete', 'everything', '--prompt', 'completable-prompt', 'name', '--context', 'department=Engineering'],
    { cwd: ws },
  );
  assert.equal(names.stdout, 'Alice\nBob\nCharlie\n');
  const ids = await h.run(
    ['complete', 'everything', '--resource', 'demo://resource/dynamic/text/{resourceId}', 'resourceId', '7', '--json'],
    { cwd: ws },
  );
  assert.deepEqual((JSON.parse(ids.stdout) as { values: string[] }).values, ['7']);
  const bad = await h.run(['complete', 'everything', 'department'], { cwd: ws });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /exactly one of --prompt NAME or --resource URI_TEMPLATE/);
  const unknown = await h.run(['complete', 'everything', '--prompt', 'nope', 'x'], { cwd: ws });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no prompt "nope"/);
});
