import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noCacheableInFlight, withAbsentCacheHints } from '../../../src/core/connection/cache-hints.js';

const listing = (method: keyof ReturnType<typeof noCacheableInFlight>) => ({ ...noCacheableInFlight(), [method]: 1 });

test('absent hints are filled in as stale and private, naming the method by the array the result carries', () => {
  const tools = [{ name: 'echo', inputSchema: { type: 'object' } }];
  assert.deepEqual(withAbsentCacheHints({ resultType: 'complete', tools }, listing('tools/list')), {
    method: 'tools/list',
    result: { resultType: 'complete', tools, ttlMs: 0, cacheScope: 'private' },
  });
  assert.equal(
    withAbsentCacheHints({ contents: [], ttlMs: 5 }, listing('resources/read'))?.result.cacheScope,
    'private',
  );
  assert.equal(
    withAbsentCacheHints({ resourceTemplates: [], cacheScope: 'public' }, listing('resources/templates/list'))?.result
      .ttlMs,
    0,
  );
});

test('a hint that is present is kept as it is, right or wrong (the SDK judges it)', () => {
  assert.equal(
    withAbsentCacheHints({ tools: [], ttlMs: 60_000, cacheScope: 'public' }, listing('tools/list')),
    undefined,
  );
  assert.deepEqual(withAbsentCacheHints({ tools: [], ttlMs: -1 }, listing('tools/list'))?.result, {
    tools: [],
    ttlMs: -1,
    cacheScope: 'private',
  });
});

test('only the methods in flight are considered: a tool call result or a list nobody asked for is left alone', () => {
  assert.equal(withAbsentCacheHints({ tools: [] }, noCacheableInFlight()), undefined);
  assert.equal(withAbsentCacheHints({ tools: [] }, listing('prompts/list')), undefined);
  assert.equal(withAbsentCacheHints({ content: [{ type: 'text', text: 'x' }] }, listing('tools/list')), undefined);
  assert.equal(withAbsentCacheHints(undefined, listing('tools/list')), undefined);
});
