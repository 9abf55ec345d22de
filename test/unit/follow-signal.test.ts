// followSignal (core/follow-signal.ts): a request's signal that follows a connection-long one.
// On Node 20 AbortSignal.any left a weak reference in the source for every signal made from it,
// for good: the HTTP transports' signal grew by about 50 bytes per request (issue 30).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { followSignal, followerCount } from '../../src/core/follow-signal.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collected(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    // Finalization callbacks run in a task of their own after the collection.
    await new Promise((r) => setTimeout(r, 10));
  }
  return process.memoryUsage().heapUsed;
}

const ROUND = 50_000;

/** `n` requests following `source`, yielding now and then as requests do between their turns. */
async function requests(source: AbortSignal, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    followSignal(source);
    if (i % 500 === 0) await new Promise((r) => setImmediate(r));
  }
}

test('a connection-long signal holds nothing of the requests that followed it once they are gone', async () => {
  const source = new AbortController().signal;
  // The first round grows the tables the followers pass through to the size they keep.
  await requests(source, ROUND);
  const before = await collected();
  await requests(source, 3 * ROUND);
  const grown = (await collected()) - before;
  // AbortSignal.any on Node 20: about 7 MB here (50 bytes a request).
  assert.ok(grown < 3 * 1024 * 1024, `the heap grew by ${(grown / 1024).toFixed(0)} KB over ${3 * ROUND} requests`);
  assert.ok(followerCount(source) < ROUND, `${followerCount(source)} followers left`);
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
