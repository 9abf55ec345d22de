// scripts/test.mjs lists the tests it skipped, with their reasons, together at the end of its
// output (scripts/lib/skip-list.mjs), so the tools a bare machine lacks are read in one place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

test('a test skipped for a missing tool is listed once more at the end of the run, with the tool and its install', () => {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.tmp', 'runner-skips-'));
  try {
    const support = relative(dir, join(ROOT, 'test', 'support', 'system-tool')).replace(/\\/g, '/');
    writeFileSync(
      join(dir, 'needs.test.ts'),
      [
        "import { test } from 'node:test';",
        `import { requireTool } from '${support}';`,
        "test('uses bwrap', (t) => {",
        "  const missing = requireTool('bwrap', 'apt-get install bubblewrap', () => true);",
        '  if (missing) return t.skip(missing);',
        '});',
        "test('plain', () => {});",
        '',
      ].join('\n'),
    );
    const file = relative(ROOT, join(dir, 'needs.test.ts'));
    // Without the outer npm test's skip list too: this run's skip is its own, not the outer run's.
    const { NODE_TEST_CONTEXT: _inner, CI: _ci, MCP_HOST_TEST_SKIPS_FILE: _outer, ...env } = process.env;
    const run = (extra: Record<string, string>) =>
      spawnSync(process.execPath, ['scripts/test.mjs', file, '--one-process'], {
        cwd: ROOT,
        env: { ...env, MCP_HOST_TEST_HIDE_TOOLS: 'bwrap', ...extra },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const bare = run({});
    const out = `${bare.stdout}${bare.stderr}`;
    assert.equal(bare.status, 0, out);
    const tail = out.slice(out.lastIndexOf('skipped: 1 ('));
    assert.match(
      tail,
      /^skipped: 1 \(CI=true runs them\):\n {2}skipped: needs bwrap \(apt-get install bubblewrap\) \(1 test: /,
    );
    assert.match(tail, /needs\.test\.ts\)\n*$/, 'the list is the last thing printed');
    const ci = run({ CI: 'true' });
    assert.equal(ci.status, 1, 'under CI the missing tool fails the test');
    assert.match(`${ci.stdout}${ci.stderr}`, /needs bwrap \(apt-get install bubblewrap\): CI runs these tests/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
