// scripts/test.mjs runs the bundled tests without --enable-source-maps; its reporter
// (scripts/lib/mapped-spec-reporter.mjs) maps what it prints instead. A failure must still name the
// .ts file and line, of the test and of the source module it called, and so must a stack a test writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

test('a failing bundled test reports the .ts file and line of every frame of its own code', () => {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  // Inside the repository: the runner bundles with its tsconfig.json, from its root.
  const dir = mkdtempSync(join(ROOT, '.tmp', 'runner-maps-'));
  try {
    // Types first, so a bundle's lines differ from the source's and an unmapped frame shows.
    writeFileSync(
      join(dir, 'helper.ts'),
      [
        'export interface Shape {',
        '  n: number;',
        '}',
        'export function explode(s: Shape): never {',
        '  throw new Error(`exploded at ${s.n}`);',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'fail.test.ts'),
      [
        "import { test } from 'node:test';",
        "import { explode, type Shape } from './helper';",
        '',
        'const shape: Shape = { n: 1 };',
        "test('fails', () => {",
        "  console.error(new Error('written by the test').stack);",
        '  explode(shape);',
        '});',
        '',
      ].join('\n'),
    );
    const file = relative(ROOT, join(dir, 'fail.test.ts'));
    // Without NODE_TEST_CONTEXT, which tells a node --test inside a test file to run nothing.
    const { NODE_TEST_CONTEXT: _inner, ...env } = process.env;
    const r = spawnSync(process.execPath, ['scripts/test.mjs', file, '--one-process'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const out = `${r.stdout}${r.stderr}`;
    assert.equal(r.status, 1, out);
    assert.match(out, /exploded at 1/);
    const at = (name: string, line: number, col: number) =>
      new RegExp(`${join(dir, name).replace(/[.\\/]/g, '\\$&')}:${line}:${col}\\b`);
    assert.match(out, at('helper.ts', 5, 9), 'the throwing frame, in the imported module');
    assert.match(out, at('fail.test.ts', 7, 3), 'the calling frame, in the test file');
    assert.match(out, at('fail.test.ts', 6, 17), 'the stack the test wrote to stderr');
    assert.doesNotMatch(out, /[\\/]bundles[\\/].*\.js:\d+:\d+/, 'no frame left in a bundle');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
