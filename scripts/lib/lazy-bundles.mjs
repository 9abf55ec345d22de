// The extension as several CommonJS bundles: extension.js (what activation runs: the host, the tree,
// the palette) and one bundle per feature loaded on first use (LAZY), each holding only the modules
// extension.js does not. A module both need is extension.js's: the feature bundle's import of it
// resolves to a stand-in that reads it from a registry extension.js fills when it loads, so the
// process holds one copy (one Emitter class, one SDK, one zod). A module two feature bundles need and
// extension.js does not goes to lazy-shared.js, loaded by the first feature that needs it.
//
// Why not esbuild's `splitting`: it is ESM-only, and VS Code (engines ^1.100) loads an extension's
// `main` with `require`, gives `vscode` to CommonJS modules only, and the bundles use `require`,
// `__filename` and `__dirname` (the sandbox runtime's helpers, the MCP Apps bridge). So the split
// is done here, from the metafiles: build extension.js, see what it holds, build the features with
// those modules as stand-ins, then build extension.js again registering the modules they asked for.
import * as esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

/** Feature bundles: main.ts reaches each entry only by `import()` (build fails otherwise). */
export const LAZY = {
  'gateway.js': 'src/extension/gateway/index.ts',
  'ide.js': 'src/extension/ide/index.ts',
  'workbench.js': 'src/extension/inspector/commands.ts',
  'registry.js': 'src/extension/registry/browse.ts',
  'apps.js': 'src/extension/apps/index.ts',
  // The host's WebSocket transport's `ws` (a server with `"type": "ws"`).
  'ws-socket.js': 'src/core/connection/ws-socket.ts',
};
export const SHARED_FILE = 'lazy-shared.js';
/** Namespace of the stand-ins; bundle-copies.mjs skips its inputs (references, not copies). */
export const REF_NAMESPACE = 'host-module';
const REGISTRY = `(globalThis[Symbol.for('mcp-host/modules')] ??= new Map())`;
const SKIP = Symbol.for('mcp-host/lazy-bundles/skip');

/** A module's key: its metafile input name (`src/core/host.ts`, `sdk-core:…`). */
const keyOf = (cwd, r) =>
  r.namespace === 'file' ? relative(cwd, r.path).split('\\').join('/') : `${r.namespace}:${r.path}`;

/** Inputs of a single-output build that hold code, stand-ins aside. */
function inputsOf(result) {
  const [out] = Object.entries(result.metafile.outputs).filter(([f]) => !f.endsWith('.map'));
  return new Set(
    Object.entries(out[1].inputs)
      .filter(([k, v]) => v.bytesInOutput > 0 && !k.startsWith(`${REF_NAMESPACE}:`))
      .map(([k]) => k),
  );
}

/**
 * Resolves every import as the other plugins would; one that lands on a module of `homes` (key →
 * the file that registers it) becomes a stand-in reading that module from the registry. `asked`
 * collects the keys, by home. In extension.js (`lazyFiles`), an `import()` of a LAZY entry becomes
 * a `require` of its bundle.
 */
function sharing({ cwd, homes = new Map(), asked, lazyFiles }) {
  return {
    name: 'host-modules',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.[SKIP] || args.namespace === REF_NAMESPACE) return undefined;
        if (args.kind === 'entry-point') return undefined;
        const r = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          namespace: args.namespace,
          resolveDir: args.resolveDir,
          pluginData: { [SKIP]: true },
        });
        if (r.errors.length || r.external) return r.errors.length ? { errors: r.errors } : r;
        const key = keyOf(cwd, r);
        const lazy = lazyFiles?.get(key);
        if (lazy && args.kind === 'dynamic-import') return { path: `./${lazy}`, external: true };
        if (lazy) return { errors: [{ text: `${key} is a feature bundle's entry (${lazy}): import() it` }] };
        const home = homes.get(key);
        if (!home)
          return { path: r.path, namespace: r.namespace, pluginData: r.pluginData, sideEffects: r.sideEffects };
        asked?.get(home)?.add(key);
        // Not ending in the module's own extension: esbuild would take a `.mjs` stand-in for strict ESM.
        return { path: `${home}#${key}#`, namespace: REF_NAMESPACE };
      });
      // One lookup for every stand-in of a bundle (`#get`, itself in REF_NAMESPACE: bundle-copies.mjs skips it).
      build.onLoad({ filter: /^#get$/, namespace: REF_NAMESPACE }, () => ({
        contents: `module.exports = (key, home) => {
  const m = ${REGISTRY}.get(key);
  if (!m) throw new Error(key + ' is ' + home + "'s: it must be loaded first");
  return m;
};`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^#get$/, namespace: REF_NAMESPACE }, () => ({
        path: '#get',
        namespace: REF_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: REF_NAMESPACE }, (args) => {
        const [home, key] = args.path.split('#');
        const load = home === 'extension.js' ? '' : `require('./${home}');\n`;
        return {
          contents: `${load}module.exports = require('#get')(${JSON.stringify(key)}, ${JSON.stringify(home)});`,
          loader: 'js',
        };
      });
      // The stand-in's `require('./lazy-shared.js')` is the file next to this bundle.
      build.onResolve({ filter: /^\.\/[\w-]+\.js$/, namespace: REF_NAMESPACE }, (args) => ({
        path: args.path,
        external: true,
      }));
    },
  };
}

/** A module that registers `keys` (CommonJS `require`, so each entry is the module's exports as-is). */
function registering(keys, cwd) {
  const lines = [...keys]
    .sort()
    .map((k) => `${REGISTRY}.set(${JSON.stringify(k)}, require(${JSON.stringify(`\0ref:${k}`)}));`);
  return {
    contents: lines.join('\n'),
    plugin: {
      name: 'register-modules',
      setup(build) {
        build.onResolve({ filter: /^\0ref:/ }, (args) => {
          const k = args.path.slice(5);
          const m = /^([\w-]+):(.*)$/.exec(k);
          if (m) return { path: m[2], namespace: m[1] };
          return { path: `${cwd}/${k}` };
        });
      },
    },
  };
}

/** The build options of each output of the split, from `base` (extension.js's as one bundle). */
function splitOptions(base, outDir, mainPlugins) {
  const cwd = process.cwd();
  const lazyFiles = new Map(Object.entries(LAZY).map(([f, e]) => [e, f]));
  // Quiet: each is built twice or more; the sizes are printed once at the end.
  const opts = (o) => ({ ...base, ...o, metafile: true, write: false, logLevel: 'warning' });
  const mainHomes = (homes) => new Map([...homes].filter(([, h]) => h === 'extension.js'));
  return {
    main: (keys) => {
      const reg = registering(keys, cwd);
      return opts({
        // main.ts first, so its modules load in the order they always did; then the registry.
        stdin: {
          contents: `module.exports = require('./${base.entryPoints[0]}');\n${reg.contents}`,
          resolveDir: cwd,
          loader: 'js',
          sourcefile: 'extension-entry.js',
        },
        entryPoints: undefined,
        outfile: `${outDir}/extension.js`,
        plugins: [sharing({ cwd, lazyFiles }), reg.plugin, ...mainPlugins, ...base.plugins],
      });
    },
    feature: (file, entry, homes, asked) =>
      opts({
        entryPoints: [entry],
        outfile: `${outDir}/${file}`,
        plugins: [sharing({ cwd, homes, asked }), ...base.plugins],
      }),
    // lazy-shared.js registers what the features share; its own imports of extension.js's modules are stand-ins too.
    shared: (keys, homes, asked) => {
      const reg = registering(keys, cwd);
      return opts({
        stdin: { contents: reg.contents, resolveDir: cwd, loader: 'js', sourcefile: 'lazy-shared-entry.js' },
        entryPoints: undefined,
        outfile: `${outDir}/${SHARED_FILE}`,
        plugins: [sharing({ cwd, homes: mainHomes(homes), asked }), reg.plugin, ...base.plugins],
      });
    },
  };
}

const askedSets = () =>
  new Map([
    ['extension.js', new Set()],
    [SHARED_FILE, new Set()],
  ]);

/**
 * Builds the features until no module is in two of them, moving each such module (and what it
 * imports) to lazy-shared.js. `homes`: key → the file it lives in, grown with lazy-shared.js's.
 */
async function splitFeatures(o, homes) {
  const asked = askedSets();
  const sharedKeys = new Set();
  let shared;
  for (;;) {
    const now = askedSets();
    const lazies = await Promise.all(
      Object.entries(LAZY).map(([file, entry]) => esbuild.build(o.feature(file, entry, homes, now))),
    );
    const seen = new Map();
    for (const r of lazies) for (const k of inputsOf(r)) seen.set(k, (seen.get(k) ?? 0) + 1);
    const twice = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
    for (const [h, ks] of now) for (const k of ks) asked.get(h).add(k);
    if (twice.length === 0) return { lazies, shared, sharedKeys, asked };
    for (const k of twice) sharedKeys.add(k);
    shared = await esbuild.build(o.shared(sharedKeys, homes, now));
    for (const k of now.get('extension.js')) asked.get('extension.js').add(k);
    for (const k of inputsOf(shared)) if (!homes.has(k)) homes.set(k, SHARED_FILE);
  }
}

/**
 * Builds extension.js, LAZY and lazy-shared.js from `base` (the options extension.js had as one
 * bundle) into `outDir`. Returns each output's build result (metafile included) by file name.
 */
export async function buildSplit(base, outDir, { write, mainPlugins = [] }) {
  const o = splitOptions(base, outDir, mainPlugins);
  const first = await esbuild.build(o.main([]));
  const homes = new Map([...inputsOf(first)].map((k) => [k, 'extension.js']));
  const { lazies, shared, sharedKeys, asked } = await splitFeatures(o, homes);
  const results = {};
  if (shared) {
    // Registers everything a feature asked it for (each such module is one of its inputs already).
    const keys = new Set([...sharedKeys, ...asked.get(SHARED_FILE)]);
    results[SHARED_FILE] = await esbuild.build(
      o.shared(keys, homes, new Map([['extension.js', asked.get('extension.js')]])),
    );
  }
  Object.keys(LAZY).forEach((f, i) => (results[f] = lazies[i]));
  const main = await esbuild.build(o.main(asked.get('extension.js')));
  const grown = [...inputsOf(main)].filter((k) => homes.get(k) !== 'extension.js');
  if (grown.length)
    throw new Error(`registering the shared modules pulled new ones into extension.js: ${grown.join(', ')}`);
  results['extension.js'] = main;
  if (write)
    for (const r of Object.values(results))
      for (const f of r.outputFiles) {
        mkdirSync(dirname(f.path), { recursive: true });
        writeFileSync(f.path, f.contents);
      }
  return results;
}
