// Bundles the extension and the CLI. `--production` minifies (used by `npm run package`),
// `--watch` rebuilds on change (used by F5 and `npm start`).
import * as esbuild from 'esbuild';
import { chmodSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: production,
  legalComments: 'none',
  // jsonc-parser's `main` is a UMD build whose inner requires esbuild cannot follow; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  logLevel: 'info',
  // Optional peer of ws / the SDK that we never use; keeping them out keeps the bundle small.
  external: ['vscode', 'bufferutil', 'utf-8-validate'],
};

const targets = [
  { ...common, entryPoints: ['src/extension/main.ts'], outfile: 'dist/extension.js' },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
];

if (watch) {
  for (const t of targets) {
    const ctx = await esbuild.context(t);
    await ctx.watch();
  }
  console.log('[esbuild] watching for changes');
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
  chmodSync('dist/cli.js', 0o755);
}
