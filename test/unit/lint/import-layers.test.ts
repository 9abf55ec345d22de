/**
 * src/core's layers and public face (scripts/lib/import-layers.mjs): no folder circle, every unit
 * in a layer importing only lower ones, the REACH rules over chains of imports, and the front
 * ends importing a subsystem only through its index.ts. Each finding is shown on a fixture tree,
 * so the check cannot pass by finding nothing.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const root = join(__dirname, '..', '..', '..');
const script = join(root, 'scripts', 'lib', 'import-layers.mjs');
const cyclesScript = join(root, 'scripts', 'lib', 'import-cycles.mjs');

interface Options {
  layers?: string[][];
  reach?: { from: string; to: string; why: string }[];
  faceExceptions?: Record<string, string>;
}
const checkLayers = async (dir: string, options?: Options): Promise<string[]> =>
  ((await import(pathToFileURL(script).href)) as { checkLayers(root: string, o?: Options): string[] }).checkLayers(
    dir,
    options,
  );
const importCycles = async (dir: string): Promise<string[][]> =>
  ((await import(pathToFileURL(cyclesScript).href)) as { importCycles(root: string): string[][] }).importCycles(dir);

/** Runs `fn` on a src tree in a temporary folder (`files`: paths under it and their text). */
async function withTree(files: Record<string, string>, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('src: no folder circle in core, every layer and reach rule holds, the front ends use the faces', async () => {
  assert.deepEqual(await checkLayers(join(root, 'src')), []);
});

test('a circle of folders is found where no two files import in a circle', async () => {
  await withTree(
    {
      'core/base.ts': 'export const x = 1;\n',
      'core/a/one.ts': "import type { T } from '../b/two.js';\nexport type O = T;\n",
      'core/a/four.ts': 'export const four = 4;\n',
      'core/b/two.ts': 'export type T = number;\n',
      'core/b/three.ts': "import { four } from '../a/four.js';\nexport const three = four - 1;\n",
    },
    async (dir) => {
      assert.deepEqual(await importCycles(dir), [], 'no circle of files');
      const found = await checkLayers(dir, { layers: [['*.ts'], ['a/', 'b/']], reach: [] });
      const circle = found.find((f) => f.startsWith('folder circle'));
      assert.ok(circle, found.join('\n'));
      assert.match(circle, /a\/ b\/: a\/ → b\/ \(a\/one\.ts → b\/two\.ts\); b\/ → a\/ \(b\/three\.ts → a\/four\.ts\)/);
    },
  );
});

test('a layer imports only lower ones, and a reach rule holds over a chain of imports', async () => {
  await withTree(
    {
      'core/base.ts': "import { high } from './high/h.js';\nexport const b = high;\n",
      'core/high/h.ts': "import { m } from '../mid/m.js';\nexport const high = m;\n",
      'core/mid/m.ts': "import { low } from '../low/l.js';\nexport const m = low;\n",
      'core/low/l.ts': 'export const low = 0;\n',
      'core/stray/s.ts': 'export const s = 0;\n',
    },
    async (dir) => {
      const found = await checkLayers(dir, {
        layers: [['*.ts'], ['low/'], ['mid/'], ['high/']],
        reach: [{ from: 'high/', to: 'low/', why: 'probe' }],
      });
      assert.ok(
        found.includes('layer: core/base.ts (layer 0) imports core/high/ (layer 3): base.ts → high/h.ts'),
        found.join('\n'),
      );
      // Neither edge of the chain breaks a layer; the rule is broken by the chain.
      assert.ok(
        found.includes(
          'reach: core/high/ must not depend on core/low/ (probe): high/h.ts → mid/m.ts, mid/m.ts → low/l.ts',
        ),
        found.join('\n'),
      );
      assert.ok(found.includes('core/stray/ is in no layer: add it to LAYERS (scripts/lib/import-layers.mjs)'));
      assert.equal(found.length, 3, found.join('\n'));
    },
  );
});

test('a front end importing inside a subsystem is found; its index.ts, top-level files and exceptions are not', async () => {
  await withTree(
    {
      'core/base.ts': 'export const b = 0;\n',
      'core/sub/index.ts': "export { deep } from './inner/deep.js';\n",
      'core/sub/inner/deep.ts': 'export const deep = 1;\n',
      'extension/ok.ts':
        "import { deep } from '../core/sub/index.js';\nimport { b } from '../core/base.js';\nexport const x = deep + b;\n",
      'cli/deep.ts': "export { deep } from '../core/sub/inner/deep.js';\n",
      'cli/allowed.ts': "import type { deep } from '../core/sub/inner/deep.js';\nexport type D = typeof deep;\n",
    },
    async (dir) => {
      const found = await checkLayers(dir, {
        layers: [['*.ts'], ['sub/']],
        reach: [],
        faceExceptions: { 'src/cli/allowed.ts': 'probe' },
      });
      assert.deepEqual(found, [
        'face: cli/deep.ts imports core/sub/inner/deep.ts: import core/sub/index.ts (export the name there)',
      ]);
    },
  );
});
