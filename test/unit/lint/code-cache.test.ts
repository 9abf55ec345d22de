// scripts/lib/code-cache.cjs and fixture-bundles.mjs: the integration tests start their fixture
// servers and the CLI binary through launchers that run a bundle from a V8 code cache. A launcher
// must run its bundle as `node bundle` would, and a cache must never change what runs: one that
// does not match the bundle is rejected and replaced, and the bundle's own code runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launcherSource } from '../../support/fixture-servers.js';

const ROOT = join(__dirname, '..', '..', '..');

function run(file: string, ...args: string[]): { status: number | null; out: unknown } {
  const r = spawnSync(process.execPath, [file, ...args], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.stderr, '', r.stderr);
  return { status: r.status, out: JSON.parse(r.stdout) as unknown };
}

const bundleText = (answer: string): string =>
  [
    '#!/usr/bin/env node',
    `const answer = ${JSON.stringify(answer)};`,
    'console.log(JSON.stringify({ answer, argv: process.argv.slice(2), main: require.main === module, file: __filename }));',
    'process.exitCode = 3;',
    '',
  ].join('\n');

test('a launcher runs its bundle as the program, and a cache that does not match is replaced, never run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-code-cache-'));
  try {
    const bundle = join(dir, 'app.bundle.cjs');
    const cache = `${bundle}.v8cache`;
    writeFileSync(bundle, bundleText('first'));
    writeFileSync(join(dir, 'app.js'), launcherSource('app.bundle.cjs'));
    const expected = (answer: string) => ({ answer, argv: ['a', '--b'], main: true, file: bundle });

    assert.deepEqual(run(join(dir, 'app.js'), 'a', '--b'), { status: 3, out: expected('first') });
    const written = readFileSync(cache);
    assert.ok(written.length > 0, 'the first start writes the cache');

    // Accepted: read, not written again.
    const before = statSync(cache).mtimeMs;
    assert.deepEqual(run(join(dir, 'app.js'), 'a', '--b'), { status: 3, out: expected('first') });
    assert.equal(statSync(cache).mtimeMs, before, 'a matching cache is read, not rewritten');

    // Garbage, and a cache made for other code: each is rejected, the bundle's own code runs, and a new cache is written.
    writeFileSync(cache, Buffer.alloc(written.length, 7));
    assert.deepEqual(run(join(dir, 'app.js'), 'a', '--b'), { status: 3, out: expected('first') });
    assert.notDeepEqual(readFileSync(cache), Buffer.alloc(written.length, 7));
    writeFileSync(bundle, bundleText('second'));
    assert.deepEqual(run(join(dir, 'app.js'), 'a', '--b'), { status: 3, out: expected('second') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an entry module with top-level await keeps its imports, its line numbers and its await; exports are refused', async () => {
  const { wrapTopLevelAwait } = (await import(
    pathToFileURL(join(ROOT, 'scripts', 'lib', 'fixture-bundles.mjs')).href
  )) as { wrapTopLevelAwait(source: string, file: string): string };
  const source = [
    '#!/usr/bin/env node',
    'import {',
    '  basename,',
    "} from 'node:path';",
    "import 'node:os';",
    'const wait = await Promise.resolve(basename("/x/waited"));',
    'console.log(JSON.stringify({ wait, line: new Error().stack.split("\\n")[1].match(/:(\\d+):\\d+\\)?$/)[1] }));',
    'export {};',
    '',
  ].join('\n');
  const wrapped = wrapTopLevelAwait(source, 'entry.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-wrap-tla-'));
  try {
    writeFileSync(join(dir, 'entry.mjs'), wrapped);
    const r = spawnSync(process.execPath, [join(dir, 'entry.mjs')], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.stderr, '');
    assert.deepEqual(JSON.parse(r.stdout), { wait: 'waited', line: '7' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.throws(
    () => wrapTopLevelAwait("import 'node:os';\nexport const x = 1;\n", 'lib.mjs'),
    /lib\.mjs: an entry module with exports cannot be bundled/,
  );
});
