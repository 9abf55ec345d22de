import { test } from 'node:test';
import assert from 'node:assert/strict';
import { debounce } from '../../../src/extension/config/debounce.js';

test('a burst of calls runs once, after the burst; flush runs a pending call now; dispose cancels', async () => {
  let runs = 0;
  const d = debounce(() => runs++, 30);
  for (let i = 0; i < 10; i++) d();
  assert.equal(runs, 0);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(runs, 1);
  d();
  d.flush();
  assert.equal(runs, 2);
  d.flush();
  assert.equal(runs, 2, 'nothing pending, nothing run');
  d();
  d.dispose();
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(runs, 2);
});
