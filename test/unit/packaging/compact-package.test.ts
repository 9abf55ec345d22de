/**
 * scripts/lib/compact-package.mjs on a staged folder of its own: a carried bundle from 8 KB up becomes
 * its brotli file and a stub that runs it as the file (its exports, `__filename`, `require`s beside
 * it); a small or uncarried file stays as it is; carried JSON loses its indentation.
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
}

test('a carried bundle is stored brotli-compressed behind a stub that runs it; the rest as it was', async () => {
  const { compactStage, BUNDLE_STUB, BROTLI_MIN_BYTES } = (await import(
    join(__dirname, '..', '..', '..', 'scripts', 'lib', 'compact-package.mjs')
  )) as Compact;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-compact-'));
  try {
    mkdirSync(join(dir, 'dist'));
    mkdirSync(join(dir, 'media'));
    // A bundle that requires a file beside it and reports where it runs from.
    const filler = `/* ${'x'.repeat(BROTLI_MIN_BYTES)} */`;
    const bundle = `${filler}\nmodule.exports = { file: __filename, dir: __dirname, helper: require('./helper.js').name };\n`;
    writeFileSync(join(dir, 'dist', 'big.js'), bundle);
    writeFileSync(join(dir, 'dist', 'helper.js'), `module.exports = { name: 'helper' };\n`);
    writeFileSync(join(dir, 'dist', 'cli.js'), bundle); // not carried
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', main: './dist/big.js' }, null, 2));
    writeFileSync(join(dir, 'media', 's.schema.json'), '{\n  "type": "object"\n}\n');
    const done = compactStage(dir, ['dist/big.js', 'dist/helper.js', 'dist/*.js.br', 'package.json', 'media/**']);

    assert.deepEqual(Object.keys(done).sort(), ['dist/big.js', 'media/s.schema.json', 'package.json']);
    assert.equal(readFileSync(join(dir, 'dist', 'big.js'), 'utf8'), BUNDLE_STUB);
    assert.equal(brotliDecompressSync(readFileSync(join(dir, 'dist', 'big.js.br'))).toString(), bundle);
    assert.equal(readFileSync(join(dir, 'dist', 'helper.js'), 'utf8'), `module.exports = { name: 'helper' };\n`);
    assert.equal(readFileSync(join(dir, 'dist', 'cli.js'), 'utf8'), bundle, 'a file the package does not carry');
    assert.equal(readFileSync(join(dir, 'package.json'), 'utf8'), '{"name":"x","main":"./dist/big.js"}');
    assert.equal(readFileSync(join(dir, 'media', 's.schema.json'), 'utf8'), '{"type":"object"}');

    const ran = JSON.parse(
      execFileSync(
        process.execPath,
        ['-e', `console.log(JSON.stringify(require(${JSON.stringify(join(dir, 'dist', 'big.js'))})))`],
        {
          encoding: 'utf8',
        },
      ),
    ) as { file: string; dir: string; helper: string };
    assert.deepEqual(ran, { file: join(dir, 'dist', 'big.js'), dir: join(dir, 'dist'), helper: 'helper' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
