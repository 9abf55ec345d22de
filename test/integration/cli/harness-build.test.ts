// The CLI harness builds its bundles once per test run: files started together wait for the first
// one's build instead of each bundling the CLI (six files at a time, on two cores).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness } from './harness.js';

test('three harnesses opened at once in one run share one build of the CLI', { timeout: 120_000 }, async () => {
  const run = await mkdtemp(join(tmpdir(), 'mcp-cli-run-'));
  const before = process.env.MCP_HOST_TEST_RUN_DIR;
  process.env.MCP_HOST_TEST_RUN_DIR = run;
  // Every build folder made in the run folder, including those renamed or removed afterwards.
  const builds = new Set<string>();
  const watcher = watch(run, (_, name) => {
    if (name && /^cli-bin-/.test(String(name))) builds.add(String(name));
  });
  try {
    const harnesses = await Promise.all([createHarness(), createHarness(), createHarness()]);
    try {
      assert.deepEqual(new Set(harnesses.map((h) => h.cli)).size, 1);
      assert.equal(harnesses[0]!.cli, join(run, 'cli-bin', 'cli.js'));
      assert.equal(builds.size, 1, `builds: ${[...builds].join(', ')}`);
      assert.deepEqual((await readdir(run)).sort(), ['cli-bin']);
    } finally {
      await Promise.all(harnesses.map((h) => h.dispose()));
    }
  } finally {
    watcher.close();
    if (before === undefined) delete process.env.MCP_HOST_TEST_RUN_DIR;
    else process.env.MCP_HOST_TEST_RUN_DIR = before;
    await rm(run, { recursive: true, force: true });
  }
});
