import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeliveryCheck } from '../../../src/extension/tree/delivery-check.js';
import { FakeClock } from '../../support/fakes.js';

function check(): {
  c: DeliveryCheck;
  clock: FakeClock;
  looks: Map<string, string>;
  lost: string[][];
  busy: { now: boolean };
} {
  const clock = new FakeClock();
  const looks = new Map<string, string>();
  const lost: string[][] = [];
  const busy = { now: false };
  const c = new DeliveryCheck(
    (id) => looks.get(id),
    (ids) => lost.push(ids),
    () => busy.now,
    {
      now: () => clock.now(),
      setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimeout: (h) => (h as { dispose(): void }).dispose(),
    },
  );
  return { c, clock, looks, lost, busy };
}

test('a refreshed row VS Code never asked for again is reported lost after the deadline', () => {
  const { c, clock, looks, lost } = check();
  looks.set('server/a', 'connecting');
  c.gave('server/a', 'connecting');
  looks.set('server/a', 'connected');
  c.fired(['server/a']);
  clock.advance(2999);
  assert.equal(lost.length, 0, 'not before the deadline');
  clock.advance(1);
  assert.deepEqual(lost, [['server/a']]);
});

test('a refresh VS Code acted on (it asked for the row again) is not reported', () => {
  const { c, clock, looks, lost } = check();
  c.gave('server/a', 'connecting');
  looks.set('server/a', 'connected');
  c.fired(['server/a']);
  clock.advance(500);
  c.gave('server/a', 'connected');
  clock.advance(5000);
  assert.deepEqual(lost, []);
});

test('rows VS Code was never given, and rows under a refreshed one, are not expected back', () => {
  const { c, clock, looks, lost } = check();
  c.gave('server/a/tools', '3 tools');
  looks.set('server/a/tools', '4 tools');
  looks.set('server/b', 'connected');
  c.fired(['server/a', 'server/b']);
  c.fired(['server/a/tools']);
  clock.advance(5000);
  assert.deepEqual(lost, [], 'a row forgotten with its parent, or never shown, is asked for only when shown');
});

test('while another refresh waits to go out the check waits for it', () => {
  const { c, clock, looks, lost, busy } = check();
  c.gave('server/a', 'connecting');
  looks.set('server/a', 'connected');
  c.fired(['server/a']);
  busy.now = true;
  clock.advance(3000);
  assert.deepEqual(lost, []);
  busy.now = false;
  clock.advance(3000);
  assert.deepEqual(lost, [['server/a']], 'still lost once nothing else is pending');
});

test('after a refresh of the whole tree nothing is expected, and dispose stops the check', () => {
  const { c, clock, looks, lost } = check();
  c.gave('server/a', 'connecting');
  looks.set('server/a', 'connected');
  c.fired(['server/a']);
  c.firedRoot();
  clock.advance(5000);
  assert.deepEqual(lost, []);
  c.gave('server/a', 'connecting');
  c.fired(['server/a']);
  c.dispose();
  clock.advance(5000);
  assert.deepEqual(lost, []);
});
