/**
 * What activation loads, beside its floors in the same run: the bytes of the bundles `require`
 * brings in when VS Code loads dist/extension.js (the feature bundles of scripts/lib/lazy-bundles.mjs
 * load on first use) against the whole extension as one bundle (`esbuild.config.mjs --single`, the
 * build before the split, from these sources), and the time of that `require` against the one-bundle
 * build and against an extension that only registers a tree view (bench/fixtures/tree-only-extension.js).
 *
 * Activation until the tree's first row needs VS Code's extension host (the API is a stand-in here,
 * whose tree never asks for a row); it is not measured outside the editor.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { requireMs, vscodeStub } from './lib/require-time.js';
import { figure, type Figure } from './lib/stats.js';

const OUT = resolve('bench/.tmp/activation');

function build(dir: string, extra: string[]): string {
  execFileSync(process.execPath, ['esbuild.config.mjs', '--production', `--outdir=${dir}`, ...extra], {
    stdio: 'ignore',
  });
  return join(dir, 'extension.js');
}

/** The files of `dir` that requiring `file` loads, with their sizes. */
function loadedBy(file: string, dir: string, stub: string): { files: string[]; bytes: number } {
  const r = spawnSync(
    process.execPath,
    ['-e', `${stub};require(${JSON.stringify(file)});process.stdout.write(JSON.stringify(Object.keys(require.cache)))`],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`require(${file}) failed: ${r.stderr.split('\n').slice(0, 3).join(' / ')}`);
  const files = (JSON.parse(r.stdout) as string[]).filter((f) => f.startsWith(dir));
  return { files, bytes: files.reduce((n, f) => n + statSync(f).size, 0) };
}

export async function activation(quick: boolean): Promise<Figure[]> {
  const split = build(join(OUT, 'split'), []);
  const single = build(join(OUT, 'single'), ['--single']);
  const stub = vscodeStub();
  const loaded = loadedBy(split, join(OUT, 'split'), stub);
  const whole = statSync(single).size / 1024;
  const runs = quick ? 3 : 15;
  const ms = (file: string): number => requireMs(`${stub};require(${JSON.stringify(file)})`, runs);
  const splitMs = ms(split);
  const singleMs = ms(single);
  const treeMs = ms(resolve('bench/fixtures/tree-only-extension.js'));
  return [
    figure(
      'footprint',
      `bytes loaded at activation (${loaded.files.map((f) => f.slice(OUT.length + 7)).join(' + ')})`,
      loaded.bytes / 1024,
      'KB',
      { name: 'the extension as one bundle', value: whole },
      { text: '≤ 450 KB', ok: (v) => v <= 450 },
    ),
    figure(
      'footprint',
      'require(activation bundle) p50',
      splitMs,
      'ms',
      { name: 'one bundle', value: singleMs },
      {
        text: 'split/one ≤ 0.4',
        ok: (_v, r) => r !== undefined && r <= 0.4,
      },
    ),
    figure('footprint', 'require(activation bundle) p50, against a tree-only extension', splitMs, 'ms', {
      name: 'tree-only extension',
      value: treeMs,
    }),
  ];
}
