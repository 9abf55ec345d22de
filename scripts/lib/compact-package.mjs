// What the folder vsce packs a .vsix from gets first (scripts/package-targets.mjs `stage`), to make
// the package smaller without changing what runs (docs/packaging.md, "What makes it small"):
//
// - Each bundle the package carries (a `dist/*.js` the allow-list names, from 8 KB) is stored
//   brotli-compressed beside a stub of its name, `X.js.br`: brotli at its best takes the bundles to
//   about 0.86 of what the .vsix's deflate does (about 70 KB less in all). The stub runs the bundle as
//   Node's loader would have run the file: `module._compile` with the bundle's own `__filename`, so
//   its `require`s, `__dirname` and stack traces are the file's. Unpacked in memory at load (about
//   3 ms for extension.js here); nothing is written anywhere, nothing fetched.
// - extension.js, which activation runs, is stored alone; the bundles loaded later (sdk.js at the
//   first connect, the features on first use) share one brotli stream, `dist/bundles.js.br`, where
//   each finds the names and code patterns of the ones before it: 15 KB less than one stream each
//   (312 against 327 KB). Their stubs call `dist/bundles.js`, which unpacks the stream once (about
//   4 ms for its 1.3 MB), holds it weakly (the GC may take it back; the next bundle unpacks it again)
//   and runs each bundle's own bytes of it.
// - JSON (package.json, media/**/*.json) without its indentation.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

/** Below this a bundle stored alone stays as it is: its stub would cost more than brotli saves. */
export const BROTLI_MIN_BYTES = 8 * 1024;

/** The stub left in place of a compressed bundle (one line; `module` is the file's own). */
export const BUNDLE_STUB =
  `"use strict";// MCP Host: this bundle is stored brotli-compressed beside it (scripts/lib/compact-package.mjs).\n` +
  `module._compile(require("zlib").brotliDecompressSync(require("fs").readFileSync(__filename+".br")).toString("utf8"),__filename);\n`;

/** Bundles stored alone (`X.js.br` behind BUNDLE_STUB); every other carried one goes into the shared stream. */
export const ALONE = new Set(['dist/extension.js']);
/** The shared stream of the later bundles, and its loader (a carried `dist/*.js`, so allowed like them). */
export const SHARED_STREAM = 'dist/bundles.js.br';
export const SHARED_LOADER = 'dist/bundles.js';

/** The stub of a bundle in the shared stream: runs its part as Node would have run the file. */
export const sharedStub = (name) =>
  `"use strict";// MCP Host: this bundle is part of bundles.js.br (scripts/lib/compact-package.mjs).\n` +
  `module._compile(require("./bundles.js")(${JSON.stringify(name)}),__filename);\n`;

/** The loader of the shared stream; `parts` is each bundle's [start, end) in its bytes. */
export function sharedLoader(parts) {
  return (
    `"use strict";// MCP Host: unpacks bundles.js.br, once while it is in use (scripts/lib/compact-package.mjs).\n` +
    `const parts=${JSON.stringify(parts)};let held;\n` +
    `module.exports=(name)=>{let all=held&&held.deref();if(!all){all=require("zlib").brotliDecompressSync(require("fs").readFileSync(__dirname+"/bundles.js.br"));held=new WeakRef(all);}` +
    `const [from,to]=parts[name];return all.toString("utf8",from,to);};\n`
  );
}

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
  const later = [];
  for (const rel of filesBelow(staged)) {
    const file = join(staged, rel);
    // In the shared stream a small bundle costs its stub only (no stream, no zip entry of its own).
    if (/^dist\/[^/]+\.js$/.test(rel) && carried(rel) && !ALONE.has(rel)) {
      later.push(rel);
    } else if (/^dist\/[^/]+\.js$/.test(rel) && carried(rel) && statSync(file).size >= BROTLI_MIN_BYTES) {
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
  if (later.length > 0) packShared(staged, later.sort(), done);
  return done;
}

/** The later bundles into one stream behind their stubs and the loader (see the top of this file). */
function packShared(staged, rels, done) {
  if (rels.includes(SHARED_LOADER)) throw new Error(`${SHARED_LOADER} is a bundle of its own: rename it`);
  const parts = {};
  const codes = [];
  let at = 0;
  for (const rel of rels) {
    const code = readFileSync(join(staged, rel));
    const name = rel.slice('dist/'.length);
    parts[name] = [at, at + code.length];
    at += code.length;
    codes.push(code);
    writeFileSync(join(staged, rel), sharedStub(name));
  }
  const all = Buffer.concat(codes);
  const packed = brotliCached(all);
  writeFileSync(join(staged, SHARED_STREAM), packed);
  writeFileSync(join(staged, SHARED_LOADER), sharedLoader(parts));
  for (const rel of rels) done[rel] = [parts[rel.slice('dist/'.length)][1] - parts[rel.slice('dist/'.length)][0], 0];
  done[SHARED_STREAM] = [all.length, packed.length];
}
