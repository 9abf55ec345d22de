// scripts/lib/test-bundle.mjs: the test files run bundled, and a bundled module must still see the
// folder of its own source file (tests find fixtures and the repository root from __dirname).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type BundleTests = (files: string[], opts: { root: string; outDir: string }) => Promise<string[]>;

const ROOT = join(__dirname, '..', '..', '..');

test('a bundled test file and the module it imports each keep their own __dirname and __filename', async () => {
  const root = mkdtempSync(join(tmpdir(), 'mcp-test-bundle-'));
  try {
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    writeFileSync(join(root, 'lib', 'where.ts'), 'export const libDir: string = __dirname;\n');
    writeFileSync(
      join(root, 'a.test.ts'),
      "import { libDir } from './lib/where';\nexport const seen = { own: __dirname, file: __filename, libDir };\n",
    );
    const { bundleTests } = (await import(pathToFileURL(join(ROOT, 'scripts', 'lib', 'test-bundle.mjs')).href)) as {
      bundleTests: BundleTests;
    };
    const [out] = await bundleTests(['a.test.ts'], { root, outDir: join(root, 'out') });
    assert.equal(out, join(root, 'out', 'a.test.js'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { seen } = require(out!) as { seen: { own: string; file: string; libDir: string } };
    assert.deepEqual(seen, { own: root, file: join(root, 'a.test.ts'), libDir: join(root, 'lib') });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
