/**
 * scripts/lib/compact-package.mjs on a staged folder of its own: a carried bundle from 8 KB up becomes
 * its brotli file and a stub that runs it as the file (its exports, `__filename`, `require`s beside
 * it); an uncarried file stays as it is; carried JSON loses its indentation. extension.js is
 * stored alone; the other bundles share one stream behind stubs that run their own part of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

interface Compact {
  compactStage: (staged: string, allowed: string[]) => Record<string, [number, number]>;
  BUNDLE_STUB: string;
  BROTLI_MIN_BYTES: number;
  sharedStub: (name: string) => string;
}

test('a carried bundle is stored brotli-compressed behind a stub that runs it; the rest as it was', async () => {
  const { compactStage, BUNDLE_STUB, BROTLI_MIN_BYTES, sharedStub } = (await import(
    join(__dirname, '..', '..', '..', 'scripts', 'lib', 'compact-package.mjs')
  )) as Compact;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-compact-'));
  try {
    mkdirSync(join(dir, 'dist'));
    mkdirSync(join(dir, 'media'));
    // A bundle that requires a file beside it and reports where it runs from.
    const filler = `/* ${'x'.repeat(BROTLI_MIN_BYTES)} */`;
    const bundle = `${filler}\nmodule.exports = { file: __filename, dir: __dirname, helper: require('./helper.js').name };\n`;
    writeFileSync(join(dir, 'dist', 'extension.js'), bundle);
    // Two later bundles: one stream, each stub runs its own part (its own __filename).
    const later = (n: string) => `${filler}\nmodule.exports = { file: __filename, n: ${JSON.stringify(n)} };\n`;
    writeFileSync(join(dir, 'dist', 'sdk.js'), later('sdk'));
    writeFileSync(join(dir, 'dist', 'gateway.js'), later('gateway'));
    writeFileSync(join(dir, 'dist', 'helper.js'), `module.exports = { name: 'helper' };\n`);
    writeFileSync(join(dir, 'dist', 'cli.js'), bundle); // not carried
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', main: './dist/extension.js' }, null, 2));
    writeFileSync(join(dir, 'media', 's.schema.json'), '{\n  "type": "object"\n}\n');
    const allowed = ['dist/{extension,sdk,gateway,helper,bundles}.js', 'dist/*.js.br', 'package.json', 'media/**'];
    const done = compactStage(dir, allowed);

    assert.deepEqual(Object.keys(done).sort(), [
      'dist/bundles.js.br',
      'dist/extension.js',
      'dist/gateway.js',
      'dist/helper.js',
      'dist/sdk.js',
      'media/s.schema.json',
      'package.json',
    ]);
    assert.equal(readFileSync(join(dir, 'dist', 'extension.js'), 'utf8'), BUNDLE_STUB);
    assert.equal(brotliDecompressSync(readFileSync(join(dir, 'dist', 'extension.js.br'))).toString(), bundle);
    assert.equal(readFileSync(join(dir, 'dist', 'sdk.js'), 'utf8'), sharedStub('sdk.js'));
    assert.equal(
      brotliDecompressSync(readFileSync(join(dir, 'dist', 'bundles.js.br'))).toString(),
      later('gateway') + `module.exports = { name: 'helper' };\n` + later('sdk'),
    );
    assert.equal(readFileSync(join(dir, 'dist', 'helper.js'), 'utf8'), sharedStub('helper.js'), 'small, still shared');
    assert.equal(readFileSync(join(dir, 'dist', 'cli.js'), 'utf8'), bundle, 'a file the package does not carry');
    assert.equal(readFileSync(join(dir, 'package.json'), 'utf8'), '{"name":"x","main":"./dist/extension.js"}');
    assert.equal(readFileSync(join(dir, 'media', 's.schema.json'), 'utf8'), '{"type":"object"}');

    const ran = JSON.parse(
      execFileSync(
        process.execPath,
        ['-e', `console.log(JSON.stringify(require(${JSON.stringify(join(dir, 'dist', 'extension.js'))})))`],
        {
          encoding: 'utf8',
        },
      ),
    ) as { file: string; dir: string; helper: string };
    assert.deepEqual(ran, { file: join(dir, 'dist', 'extension.js'), dir: join(dir, 'dist'), helper: 'helper' });
    const parts = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '-e',
          `console.log(JSON.stringify(['sdk','gateway','sdk'].map((b)=>require(${JSON.stringify(join(dir, 'dist'))}+'/'+b+'.js'))))`,
        ],
        { encoding: 'utf8' },
      ),
    ) as { file: string; n: string }[];
    assert.deepEqual(parts, [
      { file: join(dir, 'dist', 'sdk.js'), n: 'sdk' },
      { file: join(dir, 'dist', 'gateway.js'), n: 'gateway' },
      { file: join(dir, 'dist', 'sdk.js'), n: 'sdk' },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
