import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pool } from '../../../src/core/connection/pool.js';

/** Holds a slot for the duration of `fn`, the way a server connection's attempts do. */
async function run<T>(pool: Pool, fn: () => Promise<T>): Promise<T> {
  const release = await pool.acquire();
  try {
    return await fn();
  } finally {
    release();
  }
}

describe('Pool', () => {
  test('never runs more than the limit and frees a slot as each job settles', async () => {
    const pool = new Pool(3);
    let running = 0;
    let max = 0;
    const release: (() => void)[] = [];
    const started: number[] = [];
    const jobs = Array.from({ length: 7 }, (_, i) =>
      run(pool, async () => {
        running++;
        max = Math.max(max, running);
        started.push(i);
        await new Promise<void>((r) => release.push(r));
        running--;
      }),
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1, 2]);
    // Finishing one job admits exactly one more (not a batch of three).
    release.shift()!();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1, 2, 3]);
    while (started.length < 7 || release.length) {
      release.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(jobs);
    assert.equal(max, 3);
    assert.equal(pool.running, 0);
  });

  test('a failing job releases its slot', async () => {
    const pool = new Pool(1);
    await assert.rejects(run(pool, () => Promise.reject(new Error('boom'))));
    assert.equal(await run(pool, async () => 'next'), 'next');
  });

  test('an aborted waiter leaves the queue without taking a slot', async () => {
    const pool = new Pool(1);
    const release = await pool.acquire();
    const ac = new AbortController();
    const waiting = pool.acquire(ac.signal);
    ac.abort();
    await assert.rejects(waiting, /aborted/);
    release();
    assert.equal(pool.running, 0);
    const again = await pool.acquire();
    assert.equal(pool.running, 1);
    again();
  });

  test('rejects a limit below 1', () => {
    assert.throws(() => new Pool(0), RangeError);
  });

  test('resize: a larger limit admits waiters at once, a smaller one admits nobody until holders drop below it', async () => {
    const pool = new Pool(1);
    const held = [await pool.acquire()];
    const got: number[] = [];
    const waiting = [1, 2, 3].map((i) => pool.acquire().then((r) => (got.push(i), held.push(r))));
    pool.resize(3);
    await Promise.all(waiting.slice(0, 2));
    assert.deepEqual(got, [1, 2]);
    assert.equal(pool.running, 3);
    pool.resize(1);
    held.shift()!();
    held.shift()!();
    assert.equal(pool.running, 1, 'two released while over the new limit: nobody admitted');
    assert.deepEqual(got, [1, 2]);
    held.shift()!();
    await waiting[2];
    assert.deepEqual(got, [1, 2, 3]);
    assert.equal(pool.running, 1);
    assert.throws(() => pool.resize(0), /at least 1/);
  });
});
