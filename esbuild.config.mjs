// Bundles the extension and the CLI. `--production` minifies (used by `npm run package`),
// `--watch` rebuilds on change (used by F5 and `npm start`).
import * as esbuild from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * zod 4 re-exports all of its ~50 error-message locales as `z.locales`, and `import * as z` keeps
 * the whole namespace alive, so every bundle carried about 260 KB of translations nobody selects
 * (we never call `z.config(z.locales.xx())`; zod registers English itself). Each `locales/index.js`
 * import resolves to a stand-in that keeps only `en`.
 */
const ZOD_LOCALES = dirname(fileURLToPath(import.meta.resolve('zod/v4/locales/en.js')));
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales-en', namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: `export { default as en } from './en.js';`,
      resolveDir: ZOD_LOCALES,
      loader: 'js',
    }));
  },
};

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  // The one version (src/core/version.ts): package.json's, written into the bundle.
  define: { __MCP_HOST_VERSION__: JSON.stringify(version) },
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
  plugins: [zodEnglishOnly],
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
    build.onResolve({ filter: /^@modelcontextprotocol\/ext-apps\/app-bridge$/ }, () => ({
      path: `./${APP_BRIDGE_FILE}`,
      external: true,
    }));
  },
};

/**
 * The 2.x SDK client's package does not declare `sideEffects: false`, so bundling the bridge (which
 * needs only its `Protocol` class) kept the client's whole `_shims` chain, Ajv included (150 KB),
 * beside the Ajv the 1.x SDK already brings into extension.js. Its modules are classes and
 * functions with no import-time effects we rely on; saying so lets esbuild drop what the bridge
 * does not reach.
 */
const SDK2_CLIENT = /[\\/]@modelcontextprotocol[\\/]client[\\/]/;
const sdk2ClientSideEffectFree = {
  name: 'sdk2-client-side-effect-free',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'sdk2-inner') return undefined;
      if (!SDK2_CLIENT.test(args.importer) && !args.path.startsWith('@modelcontextprotocol/client')) return undefined;
      const { kind, importer, resolveDir } = args;
      const r = await build.resolve(args.path, { kind, importer, resolveDir, pluginData: 'sdk2-inner' });
      return r.errors.length === 0 && SDK2_CLIENT.test(r.path) ? { ...r, sideEffects: false } : undefined;
    });
  },
};

const targets = [
  {
    ...common,
    entryPoints: ['src/extension/main.ts'],
    outfile: 'dist/extension.js',
    plugins: [zodEnglishOnly, appBridgeOutside],
    // `import()` of the bridge becomes a `require` of the file next to this one.
    supported: { 'dynamic-import': false },
  },
  {
    ...common,
    stdin: { contents: `export * from '${APP_BRIDGE}';`, resolveDir: '.', loader: 'js' },
    outfile: `dist/${APP_BRIDGE_FILE}`,
    plugins: [zodEnglishOnly, sdk2ClientSideEffectFree],
  },
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
