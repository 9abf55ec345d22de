import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { debounce } from '../../../src/extension/config/debounce.js';

test('a burst of calls runs once, after the burst; flush runs a pending call now; dispose cancels', (t) => {
  // Node's mocked timers: the test moves time itself, so no wall-clock wait can be too short.
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
  let runs = 0;
  const d = debounce(() => runs++, 30);
  for (let i = 0; i < 10; i++) {
    d();
    mock.timers.tick(20);
  }
  assert.equal(runs, 0, 'each call inside the burst restarts the wait');
  mock.timers.tick(9);
  assert.equal(runs, 0);
  mock.timers.tick(1);
  assert.equal(runs, 1, 'runs once, 30 ms after the last call');
  d();
  d.flush();
  assert.equal(runs, 2);
  d.flush();
  assert.equal(runs, 2, 'nothing pending, nothing run');
  mock.timers.tick(100);
  assert.equal(runs, 2, 'a flushed call does not run again');
  d();
  d.dispose();
  mock.timers.tick(1000);
  assert.equal(runs, 2);
});
