import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeliveryCheck } from '../../../src/extension/tree/delivery-check.js';
import { FakeClock } from '../../support/fakes.js';

function check(): {
  c: DeliveryCheck;
  clock: FakeClock;
  looks: Map<string, string>;
  lost: string[][];
  retried: string[][];
  busy: { now: boolean };
  /** `server/a` was shown connecting, is connected now, and its row was refreshed. */
  refreshed: () => void;
} {
  const clock = new FakeClock();
  const looks = new Map<string, string>();
  const lost: string[][] = [];
  const retried: string[][] = [];
  const busy = { now: false };
  const c = new DeliveryCheck(
    (id) => looks.get(id),
    (ids) => retried.push(ids),
    (ids) => lost.push(ids),
    () => busy.now,
    {
      now: () => clock.now(),
      setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimeout: (h) => (h as { dispose(): void }).dispose(),
    },
  );
  const refreshed = (): void => {
    c.gave('server/a', 'connecting');
    looks.set('server/a', 'connected');
    c.fired(['server/a']);
  };
  return { c, clock, looks, lost, retried, busy, refreshed };
}

test('a refreshed row VS Code never asked for again is refreshed once more, then the whole tree', () => {
  const { c, clock, looks, lost, retried, refreshed } = check();
  looks.set('server/a', 'connecting');
  refreshed();
  clock.advance(2999);
  assert.equal(retried.length, 0, 'not before the deadline');
  clock.advance(1);
  assert.deepEqual(retried, [['server/a']], 'first loss: the row again');
  assert.deepEqual(lost, []);
  c.fired(['server/a']);
  clock.advance(3000);
  assert.deepEqual(lost, [['server/a']], 'second loss: the whole tree');
});

test('a row that arrives after its retry is not escalated later', () => {
  const { c, clock, looks, lost, retried, refreshed } = check();
  refreshed();
  clock.advance(3000);
  assert.deepEqual(retried, [['server/a']]);
  c.fired(['server/a']);
  c.gave('server/a', 'connected');
  clock.advance(3000);
  looks.set('server/a', 'stopped');
  c.fired(['server/a']);
  clock.advance(3000);
  assert.deepEqual(lost, [], 'a loss after a delivered retry is a first loss again');
  assert.deepEqual(retried, [['server/a'], ['server/a']]);
});

test('a refresh VS Code acted on (it asked for the row again) is not reported', () => {
  const { c, clock, retried, refreshed } = check();
  refreshed();
  clock.advance(500);
  c.gave('server/a', 'connected');
  clock.advance(5000);
  assert.deepEqual(retried, []);
});

test('rows VS Code was never given, and rows under a refreshed one, are not expected back', () => {
  const { c, clock, looks, retried } = check();
  c.gave('server/a/tools', '3 tools');
  looks.set('server/a/tools', '4 tools');
  looks.set('server/b', 'connected');
  c.fired(['server/a', 'server/b']);
  c.fired(['server/a/tools']);
  clock.advance(5000);
  assert.deepEqual(retried, [], 'a row forgotten with its parent, or never shown, is asked for only when shown');
});

test('while another refresh waits to go out the check waits for it', () => {
  const { clock, retried, busy, refreshed } = check();
  refreshed();
  busy.now = true;
  clock.advance(3000);
  assert.deepEqual(retried, []);
  busy.now = false;
  clock.advance(3000);
  assert.deepEqual(retried, [['server/a']], 'still lost once nothing else is pending');
});

test('after a refresh of the whole tree nothing is expected, and dispose stops the check', () => {
  const { c, clock, lost, retried, refreshed } = check();
  refreshed();
  c.firedRoot();
  clock.advance(5000);
  assert.deepEqual(lost, []);
  assert.deepEqual(retried, []);
  c.gave('server/a', 'connecting');
  c.fired(['server/a']);
  c.dispose();
  clock.advance(5000);
  assert.deepEqual(retried, []);
});
