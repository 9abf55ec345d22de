// The spec reporter for scripts/test.mjs, with every `file:line:col` of a bundle this run made
// turned back into its TypeScript source's, through the bundle's own source map.
//
// The tests run without --enable-source-maps: with it, every process parsed the maps of all it
// loaded at start-up and mapped every stack any code made, the many errors tests provoke on purpose
// included (about 3 s of CPU per `npm test`). Here a map is read only when a stack that names its
// bundle is printed: a failure, or what a test wrote to stdout or stderr.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { compose } from 'node:stream';
import { spec } from 'node:test/reporters';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatSkips, recordSkips, skipCollector } from './skip-list.mjs';

/** Maps the locations in text that fall in a bundle below `runDir` (the run's own folder). */
export function stackMapper(runDir, cwd = process.cwd()) {
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      let map = null;
      try {
        map = { dir: dirname(file), sm: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) };
      } catch {
        // No map (a wrapper, a file of the test's own): printed as it is.
      }
      maps.set(file, map);
    }
    return maps.get(file);
  };
  const root = resolve(runDir);
  // The run folder, absolute, as a file URL or relative to cwd (the spec reporter's `test at`), then
  // a .js/.cjs/.mjs path below it and :line:col. Anchored on the folder, so a long line of output
  // (a JSON dump) costs one scan, never a search from every character.
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rel = relative(cwd, root);
  const prefixes = [root, pathToFileURL(root).href, ...(rel && !rel.startsWith('..') ? [rel] : [])];
  const location = new RegExp(
    `((?:${prefixes.map(escape).join('|')})[\\\\/][^\\s()'"\`:]*?\\.[cm]?js):(\\d+):(\\d+)`,
    'g',
  );
  return (text) =>
    text.replace(location, (whole, where, line, col) => {
      let file;
      try {
        file = where.startsWith('file://') ? fileURLToPath(where) : resolve(cwd, where);
      } catch {
        return whole;
      }
      const map = mapOf(file);
      if (!map) return whole;
      // findEntry counts lines and columns from 0; stacks from 1.
      const entry = map.sm.findEntry(Number(line) - 1, Number(col) - 1);
      if (entry?.originalSource === undefined) return whole;
      const source = entry.originalSource.startsWith('file://')
        ? fileURLToPath(entry.originalSource)
        : isAbsolute(entry.originalSource)
          ? entry.originalSource
          : resolve(map.dir, entry.originalSource);
      return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    });
}

export default async function* mappedSpec(source) {
  const runDir = process.env.MCP_HOST_TEST_RUN_DIR;
  const map = runDir ? stackMapper(runDir) : (t) => t;
  const skipped = skipCollector();
  async function* seen() {
    for await (const event of source) {
      skipped.see(event);
      yield event;
    }
  }
  for await (const chunk of compose(seen(), new spec())) yield map(String(chunk));
  // The skipped tests together at the end, each reason once; `npm test` lists all its tiers' at its own end.
  yield formatSkips(skipped.skips());
  recordSkips(process.env.MCP_HOST_TEST_SKIPS_FILE, skipped.skips());
}
