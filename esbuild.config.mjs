// Bundles the extension and the CLI. `--production` minifies (used by `npm run package`),
// `--watch` rebuilds on change (used by F5 and `npm start`).
import * as esbuild from 'esbuild';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, watch as watchTree, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkCoreOnce } from './scripts/lib/sdk-core-once.mjs';
import { buildSplit } from './scripts/lib/lazy-bundles.mjs';
import { writeSeccompHelpers } from './scripts/lib/seccomp-helper.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// `--metafile=DIR`: each output's esbuild metafile as DIR/<output>.json, for the one-copy check
// (scripts/lib/bundle-copies.mjs, test/integration/bundle-copies.test.ts). Nothing is written to
// dist/ then: integration files run side by side, and another packages (package.test.ts) dist/
// meanwhile; a half-written source map there failed a test once. With `--outdir` the bundles are
// written there too (test/support/shipped-build.ts: one build a test run, metafiles of what ships).
const metafileDir = process.argv.find((a) => a.startsWith('--metafile='))?.slice('--metafile='.length);
// `--outdir=DIR`: the bundles go to DIR instead of dist/.
const outDirArg = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length);
const outDir = outDirArg ?? 'dist';
// MCP_HOST_TEST_BUILT_DIST=DIR: DIR holds this run's production build of these sources, made by this
// file with `--production --outdir=DIR` (test/support/shipped-build.ts); a production build into
// dist/ copies it instead of building again, so package.test.ts packs the build the other test files
// checked. Tests only: it is never set elsewhere.
const builtDist = production && !watch && !outDirArg && !metafileDir ? process.env.MCP_HOST_TEST_BUILT_DIST : undefined;

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
 * @anthropic-ai/sandbox-runtime is ESM and finds its helpers (vendor/seccomp, the JVM proxy agent)
 * next to `import.meta.url`; in these CommonJS bundles that is the bundle's own file, so they go to
 * dist/vendor: the proxy agent copied, the seccomp helper MCP Host's own (src/core/sandbox/seccomp.ts:
 * a script and a BPF filter, in place of the runtime's 0.75 MB static binary). The Windows helper is
 * left out: MCP Host does not sandbox there.
 */
const IMPORT_META_URL = "const __importMetaUrl = require('url').pathToFileURL(__filename).href;";
function copySandboxVendor() {
  const from = dirname(fileURLToPath(import.meta.resolve('@anthropic-ai/sandbox-runtime/package.json')));
  mkdirSync(`${outDir}/vendor`, { recursive: true });
  const jar = 'java-proxy-agent/srt-proxy-agent.jar';
  cpSync(`${from}/vendor/${jar}`, `${outDir}/vendor/${jar}`, { recursive: true });
  writeSeccompHelpers(`${outDir}/vendor`);
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
 * The bridge's SDK is extension.js's: its imports of the SDK and zod resolve to stand-ins that
 * read the modules `src/core/apps/load-bridge.ts` registers before it loads the bridge, so the
 * process holds one protocol stack (the bridge used to carry its own `Protocol` and zod).
 */
const BRIDGE_SHARED = /^(@modelcontextprotocol\/(client|core)|zod\/v4)$/;
const appBridgeSharesSdk = {
  name: 'app-bridge-shares-sdk',
  setup(build) {
    build.onResolve({ filter: BRIDGE_SHARED }, (args) => ({ path: args.path, namespace: 'host-shared' }));
    build.onLoad({ filter: /.*/, namespace: 'host-shared' }, (args) => ({
      contents: `const shared = globalThis[Symbol.for('mcp-host/app-bridge-modules')];
if (!shared) throw new Error('ext-apps-bridge.js takes the SDK from extension.js: load it with loadAppBridge()');
module.exports = shared[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};

/**
 * The SDK's client and server pick their default JSON Schema validator in `<package>/_shims`, and
 * each brings its own inlined Ajv (150 KB minified) for it, beside the ajv the host validates with:
 * three Ajvs. Both resolve to a module exporting the host's validator on the host's ajv instead.
 */
const SDK_SHIMS = fileURLToPath(new URL('./src/core/capabilities/sdk-shims.ts', import.meta.url));
const sdkShimsAreOurs = {
  name: 'sdk-shims-are-ours',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/(client|server)\/_shims$/ }, () => ({ path: SDK_SHIMS }));
  },
};

/**
 * The SDK's client and server each ship their own copy of some helper chunks (`dialects-<hash>.mjs`,
 * `chunk-<hash>.mjs`), the same code under another hash. A server chunk whose text equals the
 * client's of the same name, once the hashed names are set aside, resolves to the client's.
 */
const SDK_DIST = (pkg) => dirname(fileURLToPath(import.meta.resolve(`@modelcontextprotocol/${pkg}`)));
const unhashed = (file) => readFileSync(file, 'utf8').replace(/([A-Za-z]+)-[\w-]{8}\.mjs/g, '$1.mjs');
const sdkChunksOnce = {
  name: 'sdk-chunks-once',
  setup(build) {
    const client = SDK_DIST('client');
    const server = SDK_DIST('server');
    const same = new Map();
    build.onResolve({ filter: /^\.\/[A-Za-z]+-[\w-]{8}\.mjs$/ }, (args) => {
      if (args.resolveDir !== server) return undefined;
      if (!same.has(args.path)) {
        const stem = args.path.slice(2, args.path.lastIndexOf('-'));
        const twin = readdirSync(client).find(
          (f) => f.startsWith(`${stem}-`) && f.endsWith('.mjs') && f.length === args.path.length - 2,
        );
        const ours = join(server, args.path);
        same.set(args.path, twin && unhashed(join(client, twin)) === unhashed(ours) ? join(client, twin) : undefined);
      }
      const twin = same.get(args.path);
      return twin ? { path: twin } : undefined;
    });
  },
};

/**
 * The sandbox runtime (with node-forge and its own zod, about 560 KB) is needed only once a
 * sandboxed server starts: its own file, required on first use, so activation does not parse it.
 */
const SANDBOX_RUNTIME_FILE = 'sandbox-runtime.js';
// The manager from its own module: the package's index also re-exports its config schemas, whose zod 3
// (60 KB) and schema text (28 KB) only its CLI reads: the manager takes its config unvalidated.
const SANDBOX_RUNTIME_EXPORTS = [
  `export { SandboxManager } from '@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-manager.js';`,
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
/**
 * node-forge (300 KB minified, 60 % of sandbox-runtime.js) serves only the runtime's TLS termination
 * (`network.tlsTerminate`: a MITM CA and leaf certificates), which MCP Host never configures: its own
 * proxy filters by host name (core/sandbox/proxy.ts). The runtime's modules read a few properties of
 * forge when they load, so the stand-in hands out nested stand-ins and throws when anything is called.
 */
const NO_FORGE = `const fail = () => { throw new Error('node-forge is not bundled: MCP Host never enables the sandbox runtime\\'s TLS termination'); };
const stand = () => new Proxy(function () {}, { get: (_t, k) => (k === Symbol.toPrimitive ? undefined : stand()), apply: fail, construct: fail });
module.exports = stand();`;
const noForge = {
  name: 'no-forge',
  setup(build) {
    build.onResolve({ filter: /^node-forge$/ }, () => ({ path: 'node-forge', namespace: 'no-forge' }));
    build.onLoad({ filter: /.*/, namespace: 'no-forge' }, () => ({ contents: NO_FORGE, loader: 'js' }));
  },
};

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

/**
 * The Redis client (ioredis, about 220 KB minified) serves only a team gateway whose config names a
 * Redis (src/core/cluster/, loaded by `import()` in serve-http.ts): its own file beside cli.js,
 * required then, so no other command parses it. The extension never reaches it.
 */
const REDIS_CLIENT_FILE = 'redis-client.js';
const redisClientOutside = {
  name: 'redis-client-outside',
  setup(build) {
    build.onResolve({ filter: /^ioredis$/ }, () => ({ path: `./${REDIS_CLIENT_FILE}`, external: true }));
  },
};

/**
 * In extension.js our code takes from the SDK's server package only what the client package and the
 * one protocol core also export (errors, constants, `inputRequired` for the gateway bridge the host
 * asks through): importing the server package's entry would load all of it (McpServer, its HTTP
 * transports, about 75 KB) at activation. The feature bundles (the gateway, the IDE servers) get the
 * real package. A name only the server exports fails the build here.
 */
const hostServerFacade = {
  name: 'host-server-facade',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) ? { path: 'server-facade', namespace: 'host-server-facade' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'host-server-facade' }, () => ({
      contents: `export * from '@modelcontextprotocol/client';\nexport { inputRequired } from '@modelcontextprotocol/core-internal';\n`,
      resolveDir: dirname(fileURLToPath(import.meta.url)),
      loader: 'js',
    }));
  },
};

/** extension.js and the feature bundles it loads on first use (scripts/lib/lazy-bundles.mjs). */
const extension = {
  ...common,
  entryPoints: ['src/extension/main.ts'],
  plugins: [zodEnglishOnly, sdkShimsAreOurs, sdkCoreOnce, sdkChunksOnce, appBridgeOutside, sandboxRuntimeOutside],
  // `import()` of a feature bundle or the bridge becomes a `require` of the file next to this one.
  supported: { 'dynamic-import': false },
};

const targets = [
  {
    ...common,
    stdin: { contents: SANDBOX_RUNTIME_EXPORTS, resolveDir: '.', loader: 'js' },
    outfile: `${outDir}/${SANDBOX_RUNTIME_FILE}`,
    plugins: [zodEnglishOnly, noForge],
  },
  {
    ...common,
    stdin: { contents: `export * from '${APP_BRIDGE}';`, resolveDir: '.', loader: 'js' },
    outfile: `${outDir}/${APP_BRIDGE_FILE}`,
    plugins: [appBridgeSharesSdk],
  },
  {
    ...common,
    stdin: { contents: `export * from 'ioredis';`, resolveDir: '.', loader: 'js' },
    outfile: `${outDir}/${REDIS_CLIENT_FILE}`,
  },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: `${outDir}/cli.js`,
    banner: { js: `#!/usr/bin/env node\n${IMPORT_META_URL}` },
    plugins: [zodEnglishOnly, sdkShimsAreOurs, sdkCoreOnce, sdkChunksOnce, sandboxRuntimeOutside, redisClientOutside],
    supported: { 'dynamic-import': false },
  },
];

// `--single`: extension.js as the one bundle it was before the split, every feature inside (the
// activation bench's baseline, bench/activation.ts); nothing else is built.
const single = process.argv.includes('--single');

/** Every output's build result by file name (`extension.js`, `gateway.js`, `cli.js`, …). */
async function buildAll(write) {
  if (single)
    return {
      'extension.js': await esbuild.build({ ...extension, outfile: `${outDir}/extension.js`, metafile: true, write }),
    };
  const [split, ...rest] = await Promise.all([
    buildSplit(extension, outDir, { write, mainPlugins: [hostServerFacade] }),
    ...targets.map((t) => esbuild.build({ ...t, metafile: true, write })),
  ]);
  return { ...split, ...Object.fromEntries(rest.map((r, i) => [basename(targets[i].outfile), r])) };
}

if (watch) {
  // The split build needs every bundle's metafile at once, so a change rebuilds them all (about 2 s).
  copySandboxVendor();
  let again = false;
  let running;
  const rebuild = () => {
    if (running) return void (again = true);
    running = buildAll(true)
      .then(
        () => console.log('[esbuild] built'),
        (e) => console.error(`[esbuild] ${e.message}`),
      )
      .finally(() => {
        running = undefined;
        if (again) ((again = false), rebuild());
      });
  };
  rebuild();
  watchTree('src', { recursive: true }, rebuild);
  console.log('[esbuild] watching for changes');
} else if (builtDist) {
  cpSync(builtDist, outDir, { recursive: true });
  console.log(`[esbuild] copied this test run's production build from ${builtDist}`);
} else {
  const analysis = metafileDir !== undefined;
  const write = !analysis || outDirArg !== undefined;
  const results = await buildAll(write);
  if (analysis) {
    mkdirSync(metafileDir, { recursive: true });
    for (const [file, r] of Object.entries(results))
      writeFileSync(join(metafileDir, `${file}.json`), JSON.stringify(r.metafile));
  }
  if (write && !single) {
    chmodSync(`${outDir}/cli.js`, 0o755);
    copySandboxVendor();
  }
}
