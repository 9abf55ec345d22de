import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RingBuffer } from '../../../src/core/trace/ring.js';

test('RingBuffer keeps the newest items in order and counts what it dropped', () => {
  const r = new RingBuffer<number>(3);
  assert.deepEqual(r.toArray(), []);
  r.push(1);
  r.push(2);
  assert.deepEqual(r.toArray(), [1, 2]);
  assert.equal(r.dropped, 0);
  for (const n of [3, 4, 5]) r.push(n);
  assert.deepEqual(r.toArray(), [3, 4, 5]);
  assert.equal(r.size, 3);
  assert.equal(r.dropped, 2);
  r.clear();
  assert.deepEqual(r.toArray(), []);
  assert.equal(r.dropped, 0);
  r.push(9);
  assert.deepEqual(r.toArray(), [9]);
});

test('RingBuffer wraps many times without losing order', () => {
  const r = new RingBuffer<number>(4);
  for (let i = 0; i < 103; i++) r.push(i);
  assert.deepEqual(r.toArray(), [99, 100, 101, 102]);
  assert.equal(r.dropped, 99);
});

test('RingBuffer rejects a capacity that is not a positive integer', () => {
  assert.throws(() => new RingBuffer(0), /positive integer/);
  assert.throws(() => new RingBuffer(1.5), /positive integer/);
});
