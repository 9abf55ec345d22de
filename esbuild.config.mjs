// Bundles the extension and the CLI. `--production` minifies (used by `npm run package`),
// `--watch` rebuilds on change (used by F5 and `npm start`).
import * as esbuild from 'esbuild';
import { chmodSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
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

/**
 * @anthropic-ai/sandbox-runtime is ESM and finds its helper binaries (vendor/seccomp, the JVM proxy
 * agent) next to `import.meta.url`; in these CommonJS bundles that is the bundle's own file, and
 * the helpers are copied to dist/vendor (the Windows helper is left out: MCP Host does not sandbox there).
 */
const IMPORT_META_URL = "const __importMetaUrl = require('url').pathToFileURL(__filename).href;";
function copySandboxVendor() {
  const from = dirname(fileURLToPath(import.meta.resolve('@anthropic-ai/sandbox-runtime/package.json')));
  mkdirSync('dist/vendor', { recursive: true });
  for (const sub of ['seccomp/x64', 'seccomp/arm64', 'java-proxy-agent/srt-proxy-agent.jar'])
    cpSync(`${from}/vendor/${sub}`, `dist/vendor/${sub}`, { recursive: true });
}

/** @type {import('esbuild').BuildOptions} */
const common = {
  // import.meta.url: the sandbox runtime's helpers (copySandboxVendor); the one version
  // (src/core/version.ts): package.json's, written into the bundle.
  define: { 'import.meta.url': '__importMetaUrl', __MCP_HOST_VERSION__: JSON.stringify(version) },
  banner: { js: IMPORT_META_URL },
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

/**
 * The sandbox runtime (with node-forge and its own zod, about 560 KB) is needed only once a
 * sandboxed server starts: its own file, required on first use, so activation does not parse it.
 */
const SANDBOX_RUNTIME_FILE = 'sandbox-runtime.js';
const SANDBOX_RUNTIME_EXPORTS = [
  `export * from '@anthropic-ai/sandbox-runtime';`,
  ...[
    'http-proxy',
    'socks-proxy',
    'mux-proxy',
    'domain-pattern',
    'parent-proxy',
    'resolved-address-guard',
    'sandbox-utils',
  ].map((m) => `export * from '@anthropic-ai/sandbox-runtime/dist/sandbox/${m}.js';`),
].join('\n');
const sandboxRuntimeOutside = {
  name: 'sandbox-runtime-outside',
  setup(build) {
    // Its inner modules too (src/core/sandbox/proxy.ts): one copy of the library, one state.
    build.onResolve({ filter: /^@anthropic-ai\/sandbox-runtime(\/dist\/sandbox\/[\w-]+\.js)?$/ }, () => ({
      path: `./${SANDBOX_RUNTIME_FILE}`,
      external: true,
    }));
  },
};

const targets = [
  {
    ...common,
    entryPoints: ['src/extension/main.ts'],
    outfile: 'dist/extension.js',
    plugins: [zodEnglishOnly, appBridgeOutside, sandboxRuntimeOutside],
    // `import()` of the bridge becomes a `require` of the file next to this one.
    supported: { 'dynamic-import': false },
  },
  {
    ...common,
    stdin: { contents: SANDBOX_RUNTIME_EXPORTS, resolveDir: '.', loader: 'js' },
    outfile: `dist/${SANDBOX_RUNTIME_FILE}`,
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
    banner: { js: `#!/usr/bin/env node\n${IMPORT_META_URL}` },
    plugins: [zodEnglishOnly, sandboxRuntimeOutside],
    supported: { 'dynamic-import': false },
  },
];

if (watch) {
  copySandboxVendor();
  for (const t of targets) {
    const ctx = await esbuild.context(t);
    await ctx.watch();
  }
  console.log('[esbuild] watching for changes');
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
  chmodSync('dist/cli.js', 0o755);
  copySandboxVendor();
}
