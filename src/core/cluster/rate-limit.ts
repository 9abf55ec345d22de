/**
 * The rate limit per person shared by every process (gateway/service/rate-limit.ts is the one of a
 * single process): one token bucket per token subject in Redis (`<prefix>rate:<sha256 of sub>`),
 * taken from atomically by a Lua script on Redis's own clock (the processes' clocks may differ),
 * one round trip a call. While Redis cannot be reached each process falls back to a bucket of its
 * own, so the limit still holds per process and no call waits on a Redis that is down.
 */
import { createHash } from 'node:crypto';
import { MemoryRateLimiter, type CallLimiter, type RateVerdict } from '../gateway/service/rate-limit.js';
import type { ServiceRateLimit } from '../gateway/service/config.js';
import type { RedisLink } from './link.js';

/** KEYS[1] the bucket; ARGV: tokens per ms, burst. Returns {1, 0} or {0, ms until a token}. */
const TAKE = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
if wait > 0 then return {0, wait} end
return {1, 0}
`;
const TAKE_SHA = createHash('sha1').update(TAKE).digest('hex');

export class RedisRateLimiter implements CallLimiter {
  private readonly local: MemoryRateLimiter;
  private readonly perMs: string;

  constructor(
    private readonly link: RedisLink,
    private readonly keyPrefix: string,
    private readonly limit: ServiceRateLimit,
  ) {
    this.local = new MemoryRateLimiter(limit);
    this.perMs = String(limit.callsPerMinute / 60_000);
  }

  async take(who: string): Promise<RateVerdict> {
    // Hashed: a subject is a person's id, and key names show in Redis's tools and logs.
    const key = `${this.keyPrefix}rate:${createHash('sha256').update(who).digest('hex').slice(0, 32)}`;
    try {
      const [ok, wait] = await this.link.script<[number, number]>(
        TAKE,
        TAKE_SHA,
        [key],
        [this.perMs, this.limit.burst],
      );
      return ok === 1 ? { ok: true } : { ok: false, retryAfterMs: Number(wait) };
    } catch (err) {
      this.link.complain(`gateway: rate limit counted in this process only: ${this.link.safe(err)}`);
      return this.local.take(who);
    }
  }
}
