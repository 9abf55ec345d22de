// The tests a run skipped, listed together at its end (scripts/lib/mapped-spec-reporter.mjs for one
// tier, scripts/test-all.mjs for `npm test`): a test that needs a system tool skips outside CI with
// one line naming the tool and how to install it (test/support/system-tool.ts), and a reader should
// not have to find those lines among hundreds of passes.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Follows a reporter's events; `skips()` gives `{ file, name, reason }` of each skipped test. A test's
 * event names the wrapper its process ran (a file of its own) or the bundle that defined it (one
 * process for all, below `runDir`/bundles), either of which is turned back into the .ts file.
 */
export function skipCollector(runDir = process.env.MCP_HOST_TEST_RUN_DIR) {
  const bundles = runDir ? join(runDir, 'bundles') : undefined;
  const sourceOf = (file) => {
    const rel = bundles && file ? relative(bundles, file) : '..';
    return rel.startsWith('..') ? file : rel.split(sep).join('/').replace(/\.js$/, '.ts');
  };
  const fileOf = new Map();
  const list = [];
  return {
    see(event) {
      const { type, data } = event;
      // scripts/test.mjs runs each test file inside a suite named after it (the outermost level).
      if (type === 'test:start' && data.nesting === 0) fileOf.set(data.file, data.name);
      if ((type === 'test:pass' || type === 'test:fail') && data.skip !== undefined && data.skip !== false) {
        const reason = typeof data.skip === 'string' && data.skip ? data.skip : 'skipped';
        list.push({ file: fileOf.get(data.file) ?? sourceOf(data.file) ?? '', name: data.name, reason });
      }
    },
    skips: () => list,
  };
}

/** One line per reason, with the tests it skipped; '' when nothing was skipped. */
export function formatSkips(skips, heading = 'skipped') {
  if (skips.length === 0) return '';
  const byReason = new Map();
  for (const s of skips) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s]);
  const lines = [...byReason].map(([reason, tests]) => {
    const files = [...new Set(tests.map((t) => t.file))].join(', ');
    return `  skipped: ${reason} (${tests.length} test${tests.length === 1 ? '' : 's'}: ${files})`;
  });
  return `\n${heading}: ${skips.length} (CI=true runs them):\n${lines.join('\n')}\n`;
}

/** Appends skips to the file `npm test` collects them in (MCP_HOST_TEST_SKIPS_FILE), one JSON a line. */
export function recordSkips(file, skips) {
  if (file && skips.length) appendFileSync(file, skips.map((s) => `${JSON.stringify(s)}\n`).join(''));
}

export function readSkips(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
