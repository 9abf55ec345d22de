// The team gateway's settings for several processes (service/config.ts `redis`, `rateLimit`) and the
// rate limit of one process (service/rate-limit.ts), on a fake clock.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServiceConfig } from '../../../src/core/gateway/service/config.js';
import { countedCall, MemoryRateLimiter } from '../../../src/core/gateway/service/rate-limit.js';

describe('gateway.redis and gateway.rateLimit', () => {
  test('absent: one process, no limit (the embedded default)', () => {
    const { config, problems } = parseServiceConfig([
      { file: 'a.json', value: { auth: { issuer: 'https://i.test' } } },
    ]);
    assert.deepEqual(problems, []);
    assert.equal(config.redis, undefined);
    assert.equal(config.rateLimit, undefined);
  });

  test('defaults: the key prefix, the results TTL, the command deadline; burst = callsPerMinute', () => {
    const { config, problems } = parseServiceConfig([
      {
        file: 'a.json',
        value: { redis: { url: 'redis://redis.internal:6379/2' }, rateLimit: { callsPerMinute: 120 } },
      },
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(config.redis, {
      url: 'redis://redis.internal:6379/2',
      keyPrefix: 'mcp-host:',
      resultTtlS: 3600,
      commandTimeoutMs: 2000,
    });
    assert.deepEqual(config.rateLimit, { callsPerMinute: 120, burst: 120 });
  });

  test('a URL that is not redis:// or rediss:// is refused without echoing it (it may hold a password)', () => {
    const { config, problems } = parseServiceConfig([
      { file: 'a.json', value: { redis: { url: 'http://user:hunter2-secret@redis:6379' } } },
    ]);
    assert.equal(config.redis, undefined);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /a\.json: gateway\.redis\.url: a redis:\/\/ or rediss:\/\/ URL/);
    assert.ok(!problems[0]!.includes('hunter2'), problems[0]);
    const bad = parseServiceConfig([{ file: 'b.json', value: { rateLimit: { callsPerMinute: 0 } } }]);
    assert.match(bad.problems[0]!, /gateway\.rateLimit\.callsPerMinute/);
  });
});

describe('the rate limit of one process', () => {
  test('burst calls at once, then one per 60/callsPerMinute s, per person; Retry-After until the next', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter({ callsPerMinute: 6, burst: 2 }, () => now);
    assert.deepEqual(await limiter.take('alice'), { ok: true });
    assert.deepEqual(await limiter.take('alice'), { ok: true });
    assert.deepEqual(await limiter.take('alice'), { ok: false, retryAfterMs: 10_000 });
    assert.deepEqual(await limiter.take('bob'), { ok: true }, 'bob has a bucket of his own');
    now += 4000;
    assert.deepEqual(await limiter.take('alice'), { ok: false, retryAfterMs: 6000 });
    now += 6000;
    assert.deepEqual(await limiter.take('alice'), { ok: true });
    now += 3_600_000;
    assert.deepEqual(await limiter.take('alice'), { ok: true });
    assert.deepEqual(await limiter.take('alice'), { ok: true });
    assert.equal((await limiter.take('alice')).ok, false, 'a long pause refills to the burst, no more');
  });

  test('what counts: calls that reach servers, with an id; not lists, not notifications', () => {
    assert.deepEqual(countedCall({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'a__b' } }), {
      id: 3,
      method: 'tools/call',
      kind: 'tool',
      name: 'a__b',
    });
    assert.equal(countedCall({ id: 4, method: 'resources/read', params: { uri: 'x://y' } })?.name, 'x://y');
    assert.equal(countedCall({ id: 5, method: 'prompts/get', params: { name: 'p' } })?.kind, 'prompt');
    assert.equal(countedCall({ id: 6, method: 'tools/list' }), undefined);
    assert.equal(countedCall({ method: 'tools/call', params: { name: 'x' } }), undefined);
    assert.equal(countedCall('not json-rpc'), undefined);
  });
});
