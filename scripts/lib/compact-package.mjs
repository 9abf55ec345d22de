// What the folder vsce packs a .vsix from gets first (scripts/package-targets.mjs `stage`), to make
// the package smaller without changing what runs (docs/packaging.md, "What makes it small"):
//
// - Each bundle the package carries (a `dist/*.js` the allow-list names, from 8 KB) is stored
//   brotli-compressed beside a stub of its name, `X.js.br`: brotli at its best takes the bundles to
//   about 0.86 of what the .vsix's deflate does (about 70 KB less in all). The stub runs the bundle as
//   Node's loader would have run the file: `module._compile` with the bundle's own `__filename`, so
//   its `require`s, `__dirname` and stack traces are the file's. Unpacked in memory at load (about
//   3 ms for extension.js here); nothing is written anywhere, nothing fetched.
// - JSON (package.json, media/**/*.json) without its indentation.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

/** Below this a bundle stays as it is: its stub would cost more than brotli saves. */
export const BROTLI_MIN_BYTES = 8 * 1024;

/** The stub left in place of a compressed bundle (one line; `module` is the file's own). */
export const BUNDLE_STUB =
  `"use strict";// MCP Host: this bundle is stored brotli-compressed beside it (scripts/lib/compact-package.mjs).\n` +
  `module._compile(require("zlib").brotliDecompressSync(require("fs").readFileSync(__filename+".br")).toString("utf8"),__filename);\n`;

export function brotli(data) {
  return brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
}

/**
 * Brotli at its best costs seconds of CPU for extension.js, and every package (the universal one,
 * then each target, in two processes) carries the same bundles: the results are kept by content in
 * node_modules/.cache (the newest few).
 */
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/mcp-host-brotli/', import.meta.url));
const CACHE_KEEP = 32;

function brotliCached(data) {
  const file = join(CACHE, `${createHash('sha256').update(data).digest('hex')}.br`);
  try {
    return readFileSync(file);
  } catch {
    // Not yet.
  }
  const packed = brotli(data);
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(`${file}.${process.pid}`, packed);
  renameSync(`${file}.${process.pid}`, file);
  const kept = readdirSync(CACHE)
    .map((f) => ({ f, t: statSync(join(CACHE, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { f } of kept.slice(CACHE_KEEP)) rmSync(join(CACHE, f), { force: true });
  return packed;
}

/** Every file below `dir`, as paths relative to it with `/`. */
function filesBelow(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesBelow(join(dir, e.name), base) : [relative(base, join(dir, e.name)).split('\\').join('/')],
  );
}

/**
 * Compacts the staged folder `staged` in place. `allowed` are the allow-list's patterns (the `!`
 * lines of .vscodeignore, without the `!`), so only bundles the package carries are compressed.
 * Returns what it did, by file: [bytes before, bytes after].
 */
export function compactStage(staged, allowed) {
  const { minimatch } = createRequire(import.meta.url)('minimatch');
  const carried = (rel) => allowed.some((p) => minimatch(rel, p, { dot: true }));
  const done = {};
  for (const rel of filesBelow(staged)) {
    const file = join(staged, rel);
    if (/^dist\/[^/]+\.js$/.test(rel) && carried(rel) && statSync(file).size >= BROTLI_MIN_BYTES) {
      const code = readFileSync(file);
      const packed = brotliCached(code);
      writeFileSync(`${file}.br`, packed);
      writeFileSync(file, BUNDLE_STUB);
      done[rel] = [code.length, packed.length];
    } else if ((rel === 'package.json' || /^media\/.+\.json$/.test(rel)) && carried(rel)) {
      const text = readFileSync(file, 'utf8');
      const compact = JSON.stringify(JSON.parse(text));
      writeFileSync(file, compact);
      done[rel] = [Buffer.byteLength(text), Buffer.byteLength(compact)];
    }
  }
  return done;
}
