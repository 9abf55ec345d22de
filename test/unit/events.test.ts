import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events.js';

test('Emitter delivers to every listener even when one throws, and stops after dispose', () => {
  const e = new Emitter<number>();
  const seen: number[] = [];
  e.event(() => {
    throw new Error('boom');
  });
  const sub = e.event((n) => seen.push(n));
  e.fire(1);
  sub.dispose();
  e.fire(2);
  assert.deepEqual(seen, [1]);
});
