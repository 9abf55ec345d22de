// Bundles test files for scripts/test.mjs: each test file with the sources it imports becomes one
// CommonJS file (packages stay in node_modules), so a test process starts on plain Node instead of
// tsx resolving and loading every .ts module through its hooks (about 0.4 s of CPU per integration
// process on this machine, most of a small file's cost). One esbuild call for all files.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * A bundled module keeps the `__dirname` and `__filename` of its source file: tests find their
 * fixtures and the repository root from them. Declared on the file's first line, so the source
 * map's lines stay right.
 */
const ownPaths = {
  name: 'own-paths',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(source)) return { contents: source, loader: 'ts' };
      const head = `const __dirname = ${JSON.stringify(dirname(args.path))}; const __filename = ${JSON.stringify(args.path)};`;
      return { contents: head + source, loader: 'ts' };
    });
  },
};

/**
 * Writes one bundle per test file below `outDir` and returns the bundle of each file, in order.
 * `files` are relative to `root` (the repository) or absolute; bundles keep each file's path below `root`.
 */
export async function bundleTests(files, { root, outDir }) {
  const entryPoints = files.map((f) => ({
    in: resolve(root, f),
    out: relative(root, resolve(root, f)).replace(/\.ts$/, ''),
  }));
  await build({
    entryPoints,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: 'linked',
    // As tsx does: the TypeScript sources' own settings (tsconfig.json).
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
    plugins: [ownPaths],
  });
  return entryPoints.map((e) => join(outDir, `${e.out}.js`));
}
