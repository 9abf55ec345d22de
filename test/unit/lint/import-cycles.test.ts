/**
 * No import circle in src, type-only imports included (scripts/lib/import-cycles.mjs). A circle
 * of types is two files that cannot be read apart: the shared type belongs in a file of its own.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const root = join(__dirname, '..', '..', '..');
const script = join(root, 'scripts', 'lib', 'import-cycles.mjs');

// In this process: each run of the script loaded TypeScript again (about 0.7 s of CPU); the
// command line itself is run once, below.
const importCycles = async (dir: string): Promise<string[][]> =>
  ((await import(pathToFileURL(script).href)) as { importCycles(root: string): string[][] }).importCycles(dir);

test('src has no import circle, type-only imports included', async () => {
  assert.deepEqual(await importCycles(join(root, 'src')), []);
});

test('a circle of type-only imports and re-exports is found (the check itself is sound)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
  try {
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A { b: B }\n");
    writeFileSync(join(dir, 'b.ts'), "export type { C as B } from './c.js';\n");
    // The import in a comment and a string is not an edge.
    writeFileSync(
      join(dir, 'c.ts'),
      "import type { A } from './a.js';\n// import './d.js'\nexport interface C { a: A }\n",
    );
    writeFileSync(join(dir, 'd.ts'), "import './c.js';\nexport const s = \"import './d.js'\";\n");
    const r = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /circle of 3: a\.ts b\.ts c\.ts/);
    assert.match(r.stdout, /^1 import circle/m);
    assert.deepEqual(await importCycles(dir), [['a.ts', 'b.ts', 'c.ts']]);
    writeFileSync(join(dir, 'c.ts'), 'export interface C { n: number }\n');
    assert.deepEqual(await importCycles(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
