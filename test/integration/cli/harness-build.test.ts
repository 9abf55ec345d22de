// What a test run builds for its files is built once (test/support/once-per-run.ts): files started
// together wait for the first one's build instead of each building (six files at a time, on two
// cores), and the CLI harness runs the run's one production build of cli.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oncePerRun } from '../../support/once-per-run.js';
import { withDeadline } from '../../support/wait.js';
import { shippedBuild } from '../../support/shipped-build.js';
import { createHarness } from './harness.js';

async function inRunDir<T>(body: (run: string) => Promise<T>): Promise<T> {
  const run = await mkdtemp(join(tmpdir(), 'mcp-once-run-'));
  const before = process.env.MCP_HOST_TEST_RUN_DIR;
  process.env.MCP_HOST_TEST_RUN_DIR = run;
  try {
    return await body(run);
  } finally {
    if (before === undefined) delete process.env.MCP_HOST_TEST_RUN_DIR;
    else process.env.MCP_HOST_TEST_RUN_DIR = before;
    await rm(run, { recursive: true, force: true });
  }
}

/** A build that counts how often it ran and holds until `release()`, once it has `started`. */
function gatedBuild(fail = false) {
  let runs = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  return {
    runs: () => runs,
    release,
    started: () => withDeadline(startedP, 'start of the build'),
    build: async (dir: string) => {
      runs++;
      started();
      await gate;
      if (fail) throw new Error('build failed');
      await writeFile(join(dir, 'out.txt'), `build ${runs}`);
    },
  };
}

test('three files asking at once for one run get one build', { timeout: 60_000 }, async () => {
  await inRunDir(async (run) => {
    const b = gatedBuild();
    const asked = Promise.all([
      oncePerRun('thing', b.build),
      oncePerRun('thing', b.build),
      oncePerRun('thing', b.build),
    ]);
    await b.started();
    b.release();
    const dirs = await withDeadline(asked, 'the three builds');
    assert.deepEqual(new Set(dirs), new Set([join(run, 'thing')]));
    assert.equal(b.runs(), 1);
    assert.equal(readFileSync(join(run, 'thing', 'out.txt'), 'utf8'), 'build 1');
    // Asked again later: the build in place, not a new one.
    assert.equal(await oncePerRun('thing', b.build), join(run, 'thing'));
    assert.equal(b.runs(), 1);
    assert.deepEqual((await readdir(run)).sort(), ['thing']);
  });
});

test(
  'a build that fails leaves no result and no lock, and a waiter builds for itself',
  { timeout: 60_000 },
  async () => {
    await inRunDir(async (run) => {
      const failing = gatedBuild(true);
      const good = gatedBuild();
      good.release();
      const first = oncePerRun('thing', failing.build);
      await failing.started();
      const second = oncePerRun('thing', good.build);
      failing.release();
      await assert.rejects(first, /build failed/);
      assert.equal(await withDeadline(second, 'the second build'), join(run, 'thing'));
      assert.equal(good.runs(), 1);
      assert.equal(readFileSync(join(run, 'thing', 'out.txt'), 'utf8'), 'build 1');
      assert.deepEqual((await readdir(run)).sort(), ['thing']);
    });
  },
);

test("the CLI harness's binary runs the run's production cli.js", { timeout: 120_000 }, async () => {
  const h = await createHarness();
  try {
    const { dist } = await shippedBuild();
    const bundle = join(h.cli, '..', 'cli.bundle.cjs');
    assert.ok(readFileSync(bundle).equals(readFileSync(join(dist, 'cli.js'))), `${bundle} is not ${dist}/cli.js`);
    const { code, stdout } = await h.runBinary(['--version'], { cwd: h.dir });
    assert.equal(code, 0);
    assert.match(stdout, /^\d+\.\d+\.\d+/);
  } finally {
    await h.dispose();
  }
});
