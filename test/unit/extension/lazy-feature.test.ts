import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LazyFeature } from '../../../src/extension/lazy/feature.js';
import type { Logger } from '../../../src/core/ports.js';

function logger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    trace() {},
    debug() {},
    info() {},
    warn() {},
    error: (m: string) => void errors.push(m),
  } as Logger & {
    errors: string[];
  };
}

interface Feature {
  dispose(): void;
  commands: Record<'a', (...args: unknown[]) => unknown>;
  disposed: boolean;
}

const feature = (calls: unknown[][]): Feature => {
  const f: Feature = {
    disposed: false,
    dispose: () => void (f.disposed = true),
    commands: { a: (...args) => (calls.push(args), 'ran') },
  };
  return f;
};

test('a feature loads once, on first use, and its commands run with their arguments', async () => {
  let loads = 0;
  const calls: unknown[][] = [];
  const lazy = new LazyFeature('f', logger(), async () => (loads++, feature(calls)));
  const table = lazy.commands(['a'], (f) => f.commands);
  assert.equal(loads, 0, 'nothing loads before a command runs');
  assert.equal(lazy.loaded(), undefined);
  assert.equal(await table.a(1, 'x'), 'ran');
  await table.a(2);
  assert.equal(loads, 1);
  assert.deepEqual(calls, [[1, 'x'], [2]]);
  assert.ok(lazy.loaded());
});

test('disposed while its bundle loads, the feature is disposed as soon as it arrives and never handed out', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const made: Feature[] = [];
  const lazy = new LazyFeature('f', logger(), async () => {
    await gate;
    const f = feature([]);
    made.push(f);
    return f;
  });
  const pending = lazy.get();
  lazy.dispose();
  release();
  assert.equal(await pending, undefined);
  assert.equal(made.length, 1);
  assert.equal(made[0]!.disposed, true);
  assert.equal(await lazy.get(), undefined, 'no load after dispose');
});

test('a bundle that fails to load is logged, and the next use tries again', async () => {
  const log = logger();
  let attempt = 0;
  const lazy = new LazyFeature('the gateway', log, async () => {
    if (++attempt === 1) throw new Error('Cannot find module ./gateway.js');
    return feature([]);
  });
  assert.equal(await lazy.get(), undefined);
  assert.match(log.errors[0] ?? '', /the gateway could not load: Cannot find module/);
  assert.ok(await lazy.get(), 'loaded on the second use');
  assert.equal(attempt, 2);
});
