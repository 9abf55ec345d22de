import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceSubscriptions } from '../../../src/core/features/subscriptions.js';

test('one subscribe per (server, URI) however many listen; unsubscribe when the last goes', async () => {
  const subs = new ResourceSubscriptions();
  const sent: string[] = [];
  const send = (m: 'subscribe' | 'unsubscribe') => (sent.push(m), Promise.resolve(true));
  const a = await subs.subscribe('s', 'u', () => {}, send);
  const b = await subs.subscribe('s', 'u', () => {}, send);
  const other = await subs.subscribe('s', 'v', () => {}, send);
  assert.deepEqual(sent, ['subscribe', 'subscribe']);
  a.dispose();
  a.dispose();
  assert.deepEqual(sent, ['subscribe', 'subscribe']);
  b.dispose();
  other.dispose();
  assert.deepEqual(sent, ['subscribe', 'subscribe', 'unsubscribe', 'unsubscribe']);
});

test('a server without subscriptions (send says false) leaves nothing behind', async () => {
  const subs = new ResourceSubscriptions();
  let calls = 0;
  const r = await subs.subscribe(
    's',
    'u',
    () => {},
    () => (calls++, Promise.resolve(false)),
  );
  assert.equal(r.subscribed, false);
  r.dispose();
  const again = await subs.subscribe(
    's',
    'u',
    () => {},
    () => (calls++, Promise.resolve(true)),
  );
  assert.equal(again.subscribed, true);
  assert.equal(calls, 2, 'the second listener is the first again, so it subscribes');
});
