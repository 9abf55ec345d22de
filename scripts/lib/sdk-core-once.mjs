// One protocol core for the SDK's client and server in a bundle (esbuild plugin `sdkCoreOnce`).
//
// `@modelcontextprotocol/client` and `/server` are each built with their workspace's private package
// `core-internal` inlined (tsdown `noExternal`; it is not published), into a chunk of their own,
// `dist/src-<hash>.mjs`: `Protocol`, the errors, the era codecs and both revisions' wire schemas, about
// 105 KB minified each. The two chunks differ (each keeps what its side uses) and name their exports by
// position (`Protocol as v`), so neither can stand in for the other. Their source maps, though, carry the
// complete TypeScript of every core-internal module that holds code, with the same text in both
// packages. This plugin compiles those modules once, and resolves each package's `./src-<hash>.mjs` to a
// stand-in that re-exports, under that chunk's own aliases, the names the chunk exported.
//
// Checked at build time, so an SDK update that breaks an assumption fails the build instead of bundling
// a mix: a module present in both packages must have the same text; a core-internal import must resolve
// to a module from the maps or to one of the four that hold no code (STAND_INS); a package the chunks
// inlined must be installed at the version they inlined; every name a chunk exports must be exported by
// the rebuilt core (esbuild fails on a missing or ambiguous re-export); the packages it imports must
// resolve to the same place from the client and the server. `sdkCoreShapes` (used by
// test/integration/bundle-copies.test.ts) compares the rebuilt core with both chunks at run time.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SDK_CORE_NAMESPACE = 'sdk-core';
/** The name a rebuilt module's path starts with (and so its input in the metafile, after the namespace). */
export const SDK_CORE_PACKAGE = '@modelcontextprotocol/core-internal';
const PACKAGES = ['client', 'server'];
const CHUNK = /^src-[\w-]{8}\.mjs$/;
const CHUNK_IMPORT = /^\.\/src-[\w-]{8}\.mjs$/;
const CORE_SOURCE = /(?:^|\/)core-internal\/src\/(.+\.ts)$/;
const INLINED_PACKAGE = /node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@([^/_]+)[^/]*\/node_modules\//;

/**
 * The core-internal modules that hold no code, so no source map carries them, as the SDK's sources
 * have them: type-only, a barrel, and two that forward to `@modelcontextprotocol/core` (which the
 * packages import as a dependency of their own). Anything else missing fails the build.
 */
const FROM_CORE = `export * from '@modelcontextprotocol/core/internal';\n`;
const STAND_INS = {
  'types/types.ts': 'export {};\n',
  'types/constants.ts': FROM_CORE,
  'shared/auth.ts': FROM_CORE,
  'types/index.ts': ['constants', 'enums', 'errors', 'guards', 'schemas', 'specTypeSchema', 'types']
    .map((m) => `export * from './${m}';\n`)
    .join(''),
};

export const sdkDist = (pkg) => dirname(fileURLToPath(import.meta.resolve(`@modelcontextprotocol/${pkg}`)));

/** The package's `src-<hash>.mjs`, the chunk that inlines core-internal (exactly one, or the build fails). */
export function coreChunkOf(pkg) {
  const dist = sdkDist(pkg);
  const found = readdirSync(dist).filter((f) => CHUNK.test(f));
  if (found.length !== 1)
    throw new Error(
      `@modelcontextprotocol/${pkg}: expected one dist/src-<hash>.mjs (the inlined protocol core), found ${found.length}: scripts/lib/sdk-core-once.mjs needs a look after this SDK update`,
    );
  return join(dist, found[0]);
}

/** `[local, alias]` of a chunk's one `export { local as alias, … }` clause. */
export function chunkExports(file) {
  const clauses = [...readFileSync(file, 'utf8').matchAll(/^export \{([^}]*)\};?$/gm)];
  if (clauses.length !== 1) throw new Error(`${file}: expected one export clause, found ${clauses.length}`);
  return clauses[0][1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^([\w$]+)(?: as ([\w$]+))?$/.exec(s);
      if (!m) throw new Error(`${file}: cannot read the export "${s}"`);
      // A `$1` suffix is the bundler's rename of a clash inside the chunk; the module exports the plain name.
      return [m[1].replace(/\$\d+$/, ''), m[2] ?? m[1]];
    });
}

/**
 * Every core-internal module the packages' source maps carry (path below `src/` → text), and the
 * packages the core chunks inlined (name → version). Throws when one module has two texts.
 */
export function coreSources() {
  const modules = new Map();
  const origin = new Map();
  const inlined = new Map();
  for (const pkg of PACKAGES) {
    const dist = sdkDist(pkg);
    const maps = readdirSync(dist, { recursive: true }).filter((f) => String(f).endsWith('.mjs.map'));
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(dist, String(map)), 'utf8'));
      sources.forEach((source, i) => {
        const inl = INLINED_PACKAGE.exec(source);
        if (inl && CHUNK.test(posix.basename(String(map), '.map'))) inlined.set(inl[1].replace('+', '/'), inl[2]);
        const m = CORE_SOURCE.exec(source);
        if (!m) return;
        const text = sourcesContent?.[i];
        if (typeof text !== 'string') throw new Error(`${pkg}/dist/${map}: no source text for ${source}`);
        const seen = modules.get(m[1]);
        if (seen !== undefined && seen !== text)
          throw new Error(
            `core-internal/src/${m[1]} differs between ${origin.get(m[1])} and ${pkg}/dist/${map}: the two packages were not built from one core`,
          );
        modules.set(m[1], text);
        origin.set(m[1], `${pkg}/dist/${map}`);
      });
    }
  }
  for (const path of Object.keys(STAND_INS))
    if (modules.has(path)) throw new Error(`core-internal/src/${path} now holds code: drop its stand-in`);
  return { modules, inlined };
}

/** The core-internal modules a package's core chunk was built from (paths below `src/`). */
function chunkModules(pkg) {
  const { sources } = JSON.parse(readFileSync(`${coreChunkOf(pkg)}.map`, 'utf8'));
  return sources.flatMap((s) => CORE_SOURCE.exec(s)?.[1] ?? []);
}

/** Text of the module that stands in for `pkg`'s core chunk: its exports, by its aliases, from the one core. */
function chunkStandIn(pkg) {
  const names = chunkExports(coreChunkOf(pkg)).map(([local, alias]) => `${local} as ${alias}`);
  return `export { ${names.join(', ')} } from '${SDK_CORE_PACKAGE}';\n`;
}

/**
 * The one core's entry, as core-internal's own barrel: every module either chunk was built from, and
 * the stand-ins (the chunks re-export the constants and OAuth schemas they forward).
 */
function coreEntry() {
  const modules = new Set([...PACKAGES.flatMap(chunkModules), ...Object.keys(STAND_INS)]);
  return [...modules].map((m) => `export * from './src/${m}';\n`).join('');
}

/** esbuild plugin: both packages' `./src-<hash>.mjs` become one core compiled from their source maps. */
export const sdkCoreOnce = {
  name: 'sdk-core-once',
  setup(build) {
    let state;
    const load = () => {
      if (state) return state;
      const { modules, inlined } = coreSources();
      const from = PACKAGES.map((p) => createRequire(join(sdkDist(p), 'index.mjs')));
      for (const [name, version] of inlined) {
        const installed = JSON.parse(readFileSync(from[0].resolve(`${name}/package.json`), 'utf8')).version;
        if (installed !== version)
          throw new Error(
            `the SDK's core inlined ${name} ${version}; ${installed} is installed: the one-core build would change it`,
          );
      }
      // The one core resolves its packages from the client's folder: each must be the server's too.
      const imports = /^(?:import|export)\b[^;]*?\bfrom '([^./'][^']*)'/gm;
      const own = new Set(PACKAGES.flatMap(chunkModules));
      const bare = new Set([...own].flatMap((m) => [...modules.get(m).matchAll(imports)].map((x) => x[1])));
      for (const spec of bare) {
        const places = new Set(from.map((r) => r.resolve(spec)));
        if (places.size > 1)
          throw new Error(`the SDK's client and server find ${spec} in different places (${[...places].join(', ')})`);
      }
      const dists = Object.fromEntries(PACKAGES.map((p) => [sdkDist(p), p]));
      state = { modules, dists, resolveDir: sdkDist('client') };
      return state;
    };
    build.onResolve({ filter: CHUNK_IMPORT }, (args) => {
      const pkg = load().dists[args.resolveDir];
      return pkg ? { path: `${SDK_CORE_PACKAGE}/for-${pkg}.js`, namespace: SDK_CORE_NAMESPACE } : undefined;
    });
    build.onResolve({ filter: /^@modelcontextprotocol\/core-internal$/ }, () => ({
      path: `${SDK_CORE_PACKAGE}/index.js`,
      namespace: SDK_CORE_NAMESPACE,
    }));
    build.onResolve({ filter: /^\.\.?\//, namespace: SDK_CORE_NAMESPACE }, (args) => {
      const { modules } = load();
      const base = posix.join(posix.dirname(args.importer.slice(SDK_CORE_PACKAGE.length + 1)), args.path);
      const rel = base.replace(/^src\//, '').replace(/\.js$/, '');
      const path = [rel, `${rel}.ts`, `${rel}/index.ts`].find((p) => modules.has(p) || p in STAND_INS);
      if (!path)
        throw new Error(
          `${args.importer} imports ${args.path}, which no source map of the SDK carries: scripts/lib/sdk-core-once.mjs needs a look after this SDK update`,
        );
      return { path: `${SDK_CORE_PACKAGE}/src/${path}`, namespace: SDK_CORE_NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: SDK_CORE_NAMESPACE }, (args) => {
      const { modules, resolveDir } = load();
      const rel = args.path.slice(SDK_CORE_PACKAGE.length + 1);
      const chunk = /^for-(\w+)\.js$/.exec(rel);
      if (chunk) return { contents: chunkStandIn(chunk[1]), loader: 'js', resolveDir };
      if (rel === 'index.js') return { contents: coreEntry(), loader: 'js', resolveDir };
      const src = rel.slice('src/'.length);
      return { contents: modules.get(src) ?? STAND_INS[src], loader: 'ts', resolveDir };
    });
  },
};

/** What a test can see of an export without calling it: kind, arity, members, or the value itself. */
function shapeOf(value) {
  if (typeof value === 'function') {
    const members = (o) => (o ? Object.getOwnPropertyNames(o).sort().join(' ') : '');
    // Bundlers rename (`Protocol$1`, `Protocol2`; esbuild's `_ProtocolError` for a class whose static
    // members name it), and the minified bundles rename every class anyway: compared without those.
    const name = value.name.replace(/\$?\d+$/, '').replace(/^_/, '');
    return `function ${name}/${value.length} static[${members(value)}] proto[${members(value.prototype)}]`;
  }
  if (value === null || typeof value !== 'object') return `${typeof value} ${String(value)}`;
  try {
    return `object ${JSON.stringify(value)}`;
  } catch {
    return `object ${value.constructor?.name} [${Object.keys(value).sort().join(' ')}]`;
  }
}

/**
 * Compares what the one core gives each package with what the package's own chunk exports: every
 * alias, by its shape. `rebuilt` maps a package to the module its `./src-<hash>.mjs` resolves to in
 * the bundle; returns the differences, as sentences.
 */
export async function sdkCoreShapes(rebuilt) {
  const problems = [];
  for (const pkg of PACKAGES) {
    const chunk = coreChunkOf(pkg);
    const own = await import(new URL(`file://${chunk}`).href);
    for (const [local, alias] of chunkExports(chunk)) {
      const [a, b] = [shapeOf(own[alias]), shapeOf(rebuilt[pkg][alias])];
      if (a !== b) problems.push(`${pkg}: ${local} (as ${alias}) is ${a} in the SDK's chunk, ${b} in the one core`);
    }
  }
  return problems;
}

/**
 * Writes `outfile`, an ES module whose `client` and `server` are what those packages' core chunks
 * resolve to through `sdkCoreOnce`, for `sdkCoreShapes`.
 */
export async function bundleCoreChunks(outfile) {
  const { build } = await import('esbuild');
  const viaChunk = {
    name: 'via-chunk',
    setup(b) {
      b.onResolve({ filter: /^core-chunk:/ }, (args) => {
        const pkg = args.path.slice('core-chunk:'.length);
        return b.resolve(`./${basename(coreChunkOf(pkg))}`, { kind: 'import-statement', resolveDir: sdkDist(pkg) });
      });
    },
  };
  await build({
    stdin: {
      contents: PACKAGES.map((p) => `export * as ${p} from 'core-chunk:${p}';`).join('\n'),
      loader: 'js',
      resolveDir: sdkDist('client'),
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    plugins: [viaChunk, sdkCoreOnce],
  });
}
