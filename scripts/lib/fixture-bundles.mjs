// The MCP servers the integration tests start most (the fixture servers and server-everything),
// bundled once per run and started from a V8 code cache. A fixture process spends most of its
// start-up resolving and compiling its module graph (the SDK, zod, express): as sources about
// 0.2 s of CPU per start, and the tests start them a few hundred times a run. Bundled, the graph is
// one file; compiled through `vm.Script` with `cachedData` (scripts/lib/code-cache.cjs), its
// compiled code is read back instead of compiled again. Node 20 has no module compile cache
// (`module.enableCompileCache` is Node 22.1+), so the cache is kept here.
//
// Each server gets a launcher of the same file name as its source (`<dir>/stdio-server.mjs`,
// `<dir>/server-everything/dist/index.js`), so a test passes it where it passed the source and
// the server sees the same `process.argv`. The bundles and their caches live in the run's temp
// folder and go with it; V8 rejects a cache that does not match its source, V8 version or flags,
// and the loader then compiles from source and writes a new one.
//
// Bundled as CommonJS, because `vm.Script` runs scripts; a module with top-level await has its body
// (everything after its imports) wrapped in an async function, which only an entry module may need.
import { build } from 'esbuild';
import { realpathSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const { launcherSource } = createRequire(import.meta.url)('./code-cache.cjs');

/** Fixture servers started from bundles; the others read files beside them or run in a sandbox. */
export const BUNDLED_FIXTURES = [
  'stdio-server.mjs',
  'modern-server.mjs',
  'eras-server.mjs',
  'http-server.mjs',
  'ws-server.mjs',
  'call-path-server.mjs',
  'client-features.mjs',
  'probe-exit.mjs',
];

/** `import.meta.url` of each bundled file is its source file's: a package finds files beside it so. */
const ownMeta = (entries) => ({
  name: 'own-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.(m?js)$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const isEntry = entries.has(args.path);
      if (!isEntry && !source.includes('import.meta')) return undefined;
      let contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      if (isEntry) contents = wrapTopLevelAwait(contents, args.path);
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
});

/**
 * An entry module's imports stay at the top; the rest becomes the body of an async function called
 * at once, so `await` at the top level works in a CommonJS bundle. Imports start a line with
 * `import` and end with the line holding their `from '…';` (or are `import '…';`). Anything the
 * wrap cannot keep (a top-level export other than `export {}`) is an error, never a silent change.
 */
export function wrapTopLevelAwait(source, file) {
  const lines = source.split('\n');
  const head = [];
  const body = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i === 0 && line.startsWith('#!')) {
      body.push('');
    } else if (/^import[\s{*'"]/.test(line) && !/^import\s*\(/.test(line)) {
      let j = i;
      while (!/(from\s*)?['"][^'"]+['"]\s*;?\s*$/.test(lines[j]) && j < lines.length - 1) j++;
      head.push(...lines.slice(i, j + 1));
      // Keeps the line numbers of the body (stack traces point at the source's lines).
      for (let k = i; k <= j; k++) body.push('');
      i = j;
    } else if (/^export\s*\{\s*\}\s*;?\s*$/.test(line)) {
      body.push('');
    } else if (/^export\b/.test(line)) {
      throw new Error(`${file}: an entry module with exports cannot be bundled for the code cache: ${line}`);
    } else {
      body.push(line);
    }
  }
  // On the first line with the imports, so each line of the body keeps its number.
  return `${head.join(' ')} (async () => { 'use strict'; ${body.join('\n')}\n})().catch((e) => { process.exitCode = 1; setImmediate(() => { throw e; }); });\n`;
}

/**
 * Builds the bundles and launchers into `outDir`; returns the launcher of each source, keyed by the
 * source's absolute path: the fixtures in `test/fixtures/servers` and server-everything's entry.
 */
export async function bundleFixtures({ root, outDir }) {
  const fixtures = BUNDLED_FIXTURES.map((f) => join(root, 'test', 'fixtures', 'servers', f));
  const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  const sources = [...fixtures, everything];
  const launcherOf = (src) =>
    join(outDir, 'launch', relative(src === everything ? join(root, 'node_modules') : dirname(src), src));
  const bundleOf = (src) => join(outDir, 'bundle', `${relative(root, src).replace(/[\\/]/g, '_')}.cjs`);
  await build({
    entryPoints: sources.map((src) => ({
      in: src,
      out: relative(join(outDir, 'bundle'), bundleOf(src)).replace(/\.cjs$/, ''),
    })),
    outdir: join(outDir, 'bundle'),
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'error',
    // esbuild loads a file by its real path: node_modules may be a link (a git worktree's to the main checkout's).
    plugins: [ownMeta(new Set(sources.flatMap((s) => [s, realpathSync(s)])))],
  });
  const out = {};
  for (const src of sources) {
    const launcher = launcherOf(src);
    await mkdir(dirname(launcher), { recursive: true });
    // Of the source's name and kind: an .mjs launcher is an ES module.
    await writeFile(launcher, launcherSource(relative(dirname(launcher), bundleOf(src)), launcher.endsWith('.mjs')));
    out[src] = launcher;
  }
  return out;
}
