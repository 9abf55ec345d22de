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

/**
 * The MCP Apps host bridge (@modelcontextprotocol/ext-apps with the 2.x SDK it extends, about
 * 370 KB minified) is only needed once a tool's app opens: it ships as its own file, loaded by
 * `import()` on first use, so activation does not parse it.
 */
const APP_BRIDGE = '@modelcontextprotocol/ext-apps/app-bridge';
const APP_BRIDGE_FILE = 'ext-apps-bridge.js';
const appBridgeOutside = {
  name: 'app-bridge-outside',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/ext-apps\/app-bridge$/ }, () => ({ path: `./${APP_BRIDGE_FILE}`, external: true }));
  },
};

const targets = [
  {
    ...common,
    entryPoints: ['src/extension/main.ts'],
    outfile: 'dist/extension.js',
    plugins: [appBridgeOutside],
    // `import()` of the bridge becomes a `require` of the file next to this one.
    supported: { 'dynamic-import': false },
  },
  { ...common, stdin: { contents: `export * from '${APP_BRIDGE}';`, resolveDir: '.', loader: 'js' }, outfile: `dist/${APP_BRIDGE_FILE}` },
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
