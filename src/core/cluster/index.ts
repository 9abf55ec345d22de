/**
 * Several team gateway processes as one (`"gateway": {"redis": …}`): what they share through one
 * Redis, behind the small interfaces the gateway takes (`SharedState` of service/service.ts).
 * Loaded by `mcp-host serve --http` only when Redis is configured (a dynamic import: neither the
 * extension nor a CLI without Redis loads the client). docs/team-gateway.md, "Several processes: Redis".
 */
import type { Logger } from '../ports.js';
import type { ServiceRedis } from '../gateway/service/config.js';
import type { SharedState } from '../gateway/service/service.js';
import { RedisLink } from './link.js';
import { EventHub } from './bus.js';
import { RedisResultPages } from './results.js';
import { RedisRateLimiter } from './rate-limit.js';
import type { ResultPages } from '../gateway/result-limit.js';
import type { CallLimiter } from '../gateway/service/rate-limit.js';
import type { ServiceRateLimit } from '../gateway/service/config.js';

export { RedisUnavailableError } from './link.js';

export interface Cluster extends SharedState {
  /** Cut results every process reads; each bound to the person `owner()` names when it is kept. */
  results(owner: () => string | undefined): ResultPages;
  /** The rate limit per person, shared. */
  rateLimiter(limit: ServiceRateLimit): CallLimiter;
  /** Redis round trips so far, by this process. */
  roundTrips(): number;
  close(): Promise<void>;
}

/** Connects to the configured Redis (rejects with a RedisUnavailableError naming it, password redacted). */
export async function startCluster(cfg: ServiceRedis, logger: Logger): Promise<Cluster> {
  const link = await RedisLink.connect(cfg, logger);
  let hub: EventHub;
  try {
    hub = await EventHub.start(link, cfg.keyPrefix);
  } catch (err) {
    await link.close();
    throw err;
  }
  logger.info(`gateway: sharing state through Redis at ${link.shown}`);
  return {
    busFor: (key) => hub.busFor(key),
    onViews: (open) => hub.onViews(open),
    results: (owner) => new RedisResultPages(link, cfg.keyPrefix, cfg.resultTtlS, owner),
    rateLimiter: (limit) => new RedisRateLimiter(link, cfg.keyPrefix, limit),
    health: () => ({
      redis: link.ready ? 'connected' : 'unavailable',
      redisRoundTrips: link.roundTrips,
      ...hub.stats(),
    }),
    roundTrips: () => link.roundTrips,
    close: async () => {
      await hub.close();
      await link.close();
    },
  };
}
