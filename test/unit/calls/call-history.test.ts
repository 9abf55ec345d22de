import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallHistory, summariseArgs } from '../../../src/core/calls/call-history.js';

test('history keeps the newest calls first, at most `max`, with their outcome', () => {
  const h = new CallHistory(20);
  for (let i = 0; i < 25; i++) h.add('s', `t${i}`, { i }, i);
  assert.equal(h.list().length, 20);
  assert.equal(h.last()?.tool, 't24');
  assert.equal(h.list()[19].tool, 't5');
  const rec = h.last()!;
  assert.equal(rec.outcome, undefined);
  h.finish(rec, 'cancelled', 42);
  assert.deepEqual([h.last()?.outcome, h.last()?.durationMs], ['cancelled', 42]);
});

test('history keeps a copy of the arguments, so later edits by the caller do not change a re-run', () => {
  const h = new CallHistory();
  const args = { nested: { a: 1 } };
  h.add('s', 't', args, 0);
  args.nested.a = 2;
  assert.deepEqual(h.last()?.args, { nested: { a: 1 } });
  assert.equal(new CallHistory().last(), undefined);
});

test('argument summaries are one line and cut with an ellipsis', () => {
  assert.equal(summariseArgs({}), '(no arguments)');
  assert.equal(summariseArgs({ a: 1 }), '{"a":1}');
  const long = summariseArgs({ text: 'x'.repeat(200) }, 20);
  assert.equal(long.length, 20);
  assert.ok(long.endsWith('…'));
});
