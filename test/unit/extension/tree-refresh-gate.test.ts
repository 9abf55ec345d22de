import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RefreshGate, type PendingRefresh } from '../../../src/extension/tree/refresh-gate.js';
import { FakeClock } from '../../support/fakes.js';

function gate(): { g: RefreshGate; clock: FakeClock; fired: PendingRefresh[] } {
  const clock = new FakeClock();
  const fired: PendingRefresh[] = [];
  const g = new RefreshGate((w) => fired.push(w), {
    now: () => clock.now(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (h) => (h as { dispose(): void }).dispose(),
  });
  return { g, clock, fired };
}

test('a refresh while the workbench is asking for rows waits until it has been quiet for 200 ms', () => {
  const { g, clock, fired } = gate();
  g.asked();
  g.request(['server/a']);
  clock.advance(150);
  g.asked(); // it asks for the children of a's groups
  clock.advance(150);
  assert.equal(fired.length, 0, 'not while rows are still being asked for');
  clock.advance(60);
  assert.deepEqual(fired, [{ root: false, ids: new Set(['server/a']) }]);
});

test('with no row asked for lately a refresh goes out on the next turn', () => {
  const { g, clock, fired } = gate();
  g.request(['server/a']);
  clock.advance(0);
  assert.equal(fired.length, 1);
});

test('requests made while one waits are merged; the root stands for every row', () => {
  const { g, clock, fired } = gate();
  g.asked();
  g.request(['server/a']);
  g.request(['server/b', 'server/a']);
  clock.advance(250);
  assert.deepEqual(fired, [{ root: false, ids: new Set(['server/a', 'server/b']) }]);
  g.asked();
  g.request(['server/a']);
  g.request();
  g.request(['server/c']);
  clock.advance(250);
  assert.deepEqual(fired[1], { root: true });
});

test('a workbench that never stops asking still sees the change within a second', () => {
  const { g, clock, fired } = gate();
  g.asked();
  g.request(['server/a']);
  for (let t = 0; t < 1000; t += 100) {
    g.asked();
    clock.advance(100);
  }
  clock.advance(0);
  assert.equal(fired.length, 1);
});

test('nothing fires after dispose', () => {
  const { g, clock, fired } = gate();
  g.request(['server/a']);
  g.dispose();
  g.request(['server/b']);
  clock.advance(2000);
  assert.deepEqual(fired, []);
  assert.equal(clock.pending(), 0);
});

test('a refresh waits for the children of a row given as expanded, however long the workbench was quiet', () => {
  const { g, clock, fired } = gate();
  // The workbench got everything's groups, the Tools folder among them expanded, then went quiet.
  g.asked('server/everything', ['server/everything/tools']);
  g.request(['server/everything']);
  clock.advance(1500);
  assert.equal(fired.length, 0, 'not while the expanded folder’s children are still owed');
  g.asked('server/everything/tools');
  // Past the second a refresh may wait for quiet: it goes once the owed request was served.
  clock.advance(0);
  assert.deepEqual(fired, [{ root: false, ids: new Set(['server/everything']) }]);

  // Within the second, the owed request is followed by the usual quiet.
  g.asked('server/everything', ['server/everything/tools']);
  g.request(['server/everything']);
  clock.advance(300);
  g.asked('server/everything/tools');
  clock.advance(199);
  assert.equal(fired.length, 1, 'then quiet as before');
  clock.advance(1);
  assert.equal(fired.length, 2);
});

test('a row owed but never asked for (collapsed, hidden, gone) holds a refresh 4 s at most', () => {
  const { g, clock, fired } = gate();
  g.asked(undefined, ['group/project']);
  g.request();
  clock.advance(3999);
  assert.equal(fired.length, 0);
  clock.advance(1);
  assert.deepEqual(fired, [{ root: true }]);
  // Forgotten once it expired: the next refresh waits only for quiet.
  g.request(['server/a']);
  clock.advance(200);
  assert.equal(fired.length, 2);
});

test('collapsing an owed row lets the refresh go at once', () => {
  const { g, clock, fired } = gate();
  g.asked('server/a', ['server/a/tools']);
  g.request(['server/a']);
  clock.advance(300);
  assert.equal(fired.length, 0);
  g.collapsed('server/a/tools');
  clock.advance(0);
  assert.equal(fired.length, 1);
});
