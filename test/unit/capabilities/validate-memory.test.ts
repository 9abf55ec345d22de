import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { validatorFor } from '../../../src/core/capabilities/validate.js';

// Heap figures need a collection before each reading; the flag is read when a context is made.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

// Each reconnect brings a new tool list, so new schema objects: the soak benchmark's reconnect
// cycles grew the heap by ~6 KB each because ajv kept every compiled schema in its scope.
test('compiling new schema objects again and again does not keep them', () => {
  const schema = () => ({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  });
  for (let i = 0; i < 300; i++) assert.ok(validatorFor(schema())?.({ text: 'warm' }));
  const before = heapAfterGc();
  // 1,500 (each about 0.45 ms of CPU): kept, ~6.9 MB; released, at most the last engine's share
  // (256 compilations, ~1.2 MB), so the bound sits about halfway between.
  for (let i = 0; i < 1500; i++) assert.ok(validatorFor(schema())?.({ text: 'a' }));
  const grewMb = (heapAfterGc() - before) / 1024 / 1024;
  assert.ok(grewMb < 3.5, `heap grew ${grewMb.toFixed(1)} MB over 1,500 compilations`);
});

test('a validator compiled before the engines were replaced still validates', () => {
  const first = validatorFor({ type: 'object', required: ['a'] });
  // More than the 256 compilations an engine serves (COMPILES_PER_ENGINE).
  for (let i = 0; i < 300; i++) validatorFor({ type: 'object', properties: { n: { type: 'integer' } } });
  assert.equal(first?.({ a: 1 }), true);
  assert.equal(first?.({}), false);
});
