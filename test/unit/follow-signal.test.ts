// followSignal (core/follow-signal.ts): a request's signal that follows a connection-long one.
// On Node 20 AbortSignal.any left a weak reference in the source for every signal made from it,
// for good: the HTTP transports' signal grew by about 50 bytes per request (issue 30).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { followSignal } from '../../src/core/follow-signal.js';

const MODULE = resolve(__dirname, '../../src/core/follow-signal.ts');
const ROUND = 50_000;

/**
 * The heap growth over `3 * ROUND` requests following one source, measured in a Node process of
 * its own: the unit tier runs its files side by side in one heap, which moved a few MB either way.
 */
function growthInOwnProcess(): { grown: number; left: number } {
  const dir = mkdtempSync(join(tmpdir(), 'follow-signal-'));
  const source = join(dir, 'measure.mts');
  const script = join(dir, 'measure.mjs');
  writeFileSync(
    source,
    `import { followSignal, followerCount } from ${JSON.stringify(MODULE)};
const source = new AbortController().signal;
// A settled reading: collect until two readings in a row agree within 64 KB (at most 20 rounds).
// Under load a single reading once came out 3.4 MB high (the leak guarded against is ≈8 MB).
async function collected() {
  let last = Infinity;
  for (let i = 0; i < 20; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
    const now = process.memoryUsage().heapUsed;
    if (Math.abs(now - last) < 65536) return Math.min(now, last);
    last = now;
  }
  return last;
}
async function requests(n) {
  for (let i = 0; i < n; i++) { followSignal(source); if (i % 500 === 0) await new Promise((r) => setImmediate(r)); }
}
await requests(${ROUND});
const before = await collected();
await requests(${3 * ROUND});
const grown = (await collected()) - before;
process.stdout.write(JSON.stringify({ grown, left: followerCount(source) }));
`,
  );
  try {
    // Bundled to plain JavaScript first: tsx's start-up was most of this test's CPU.
    buildSync({
      entryPoints: [source],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'warning',
    });
    const r = spawnSync(process.execPath, ['--expose-gc', script], {
      encoding: 'utf8',
      cwd: resolve(__dirname, '../..'),
      timeout: 120_000,
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { grown: number; left: number };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a connection-long signal holds nothing of the requests that followed it once they are gone', () => {
  // The first round grows the tables the followers pass through to the size they keep.
  const { grown, left } = growthInOwnProcess();
  // AbortSignal.any on Node 20: about 8 MB here (50 bytes a request).
  assert.ok(grown < 3 * 1024 * 1024, `the heap grew by ${(grown / 1024).toFixed(0)} KB over ${3 * ROUND} requests`);
  assert.ok(left < ROUND, `${left} followers left`);
});

test('every source aborts the follower, with its reason; an aborted source gives an aborted signal', () => {
  const a = new AbortController();
  const b = new AbortController();
  const kept = [followSignal(a.signal, b.signal), followSignal(a.signal)];
  b.abort(new Error('b went'));
  assert.equal((kept[0]!.reason as Error).message, 'b went');
  assert.equal(kept[1]!.aborted, false);
  a.abort(new Error('a went'));
  assert.equal((kept[1]!.reason as Error).message, 'a went');
  assert.equal((kept[0]!.reason as Error).message, 'b went');
  const late = followSignal(a.signal);
  assert.ok(late.aborted);
  assert.equal((late.reason as Error).message, 'a went');
});
