/**
 * The one connection of a gateway process to its Redis (ioredis), with what
 * every use of it needs: a deadline on each command (a Redis that hangs must not hang a call),
 * commands refused at once while it reconnects (no offline queue: a call waits for nobody), errors
 * that name the Redis with its password redacted, and a count of round trips (the load bench's
 * "Redis round trips per call"). Pub/sub has a connection of its own (`subscriber()`).
 */
import { Redis } from 'ioredis';
import type { Logger } from '../ports.js';
import { redactKnownValues, redactUrl } from '../redact.js';
import { RateLimitedLog } from '../connection-limits.js';
import type { ServiceRedis } from '../gateway/service/config.js';

/** A Redis failure as the gateway tells it: which Redis, what went wrong, no secret. */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

type Client = Redis;

export class RedisLink {
  private trips = 0;
  private readonly complaints: RateLimitedLog;

  private constructor(
    private readonly client: Client,
    private readonly cfg: ServiceRedis,
    private readonly logger: Logger,
    /** The URL as it may be shown: user and password redacted. */
    readonly shown: string,
  ) {
    this.complaints = new RateLimitedLog((l) => logger.warn(l), 3, 30_000, undefined, 'gateway');
  }

  /** Connects within `deadlineMs`, or rejects saying why; the client keeps reconnecting afterwards. */
  static async connect(cfg: ServiceRedis, logger: Logger, deadlineMs = 10_000): Promise<RedisLink> {
    const shown = redactUrl(cfg.url);
    const client = newClient(cfg);
    const link = new RedisLink(client, cfg, logger, shown);
    let last = '';
    client.on('error', (err: unknown) => {
      last = link.safe(err);
      link.complaints.log(`gateway: Redis at ${shown}: ${last}`);
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new RedisUnavailableError(
                  `no answer from Redis at ${shown} in ${deadlineMs} ms${last ? `: ${last}` : ''}`,
                ),
              ),
            deadlineMs,
          );
        }),
      ]);
    } catch (err) {
      client.disconnect();
      throw err instanceof RedisUnavailableError
        ? err
        : new RedisUnavailableError(`Redis at ${shown}: ${link.safe(err)}`);
    } finally {
      clearTimeout(timer);
    }
    return link;
  }

  /** Round trips to Redis so far (a MULTI or a script is one). */
  get roundTrips(): number {
    return this.trips;
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /** An error's text without the URL's credentials. */
  safe(err: unknown): string {
    const text = err instanceof Error ? err.message || err.name : String(err);
    return redactKnownValues(text.replaceAll(this.cfg.url, this.shown), secretsOf(this.cfg.url));
  }

  private fail(what: string, err: unknown): RedisUnavailableError {
    return new RedisUnavailableError(
      `the gateway's shared state (Redis at ${this.shown}) is unavailable: ${what}: ${this.safe(err)}`,
    );
  }

  /** One command; rejects with a RedisUnavailableError (down, reconnecting, past the deadline). */
  async command<T = unknown>(name: string, ...args: (string | number)[]): Promise<T> {
    this.trips++;
    try {
      return (await this.client.call(name, ...args)) as T;
    } catch (err) {
      throw this.fail(name, err);
    }
  }

  /**
   * A Lua script by its SHA-1 (EVALSHA), sent whole (EVAL) only when this Redis does not know it
   * yet (after a restart, or the first time): one round trip but the first.
   */
  async script<T = unknown>(lua: string, sha: string, keys: string[], args: (string | number)[]): Promise<T> {
    this.trips++;
    try {
      return (await this.client.call('EVALSHA', sha, keys.length, ...keys, ...args)) as T;
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw this.fail('EVALSHA', err);
    }
    this.trips++;
    try {
      return (await this.client.call('EVAL', lua, keys.length, ...keys, ...args)) as T;
    } catch (err) {
      throw this.fail('EVAL', err);
    }
  }

  /** Several commands as one transaction (MULTI … EXEC), one round trip; each command's reply. */
  async multi(commands: (string | number)[][]): Promise<unknown[]> {
    this.trips++;
    let replies: [Error | null, unknown][] | null;
    try {
      // ioredis takes each command by its method name: lower case.
      replies = await this.client
        .multi(commands.map(([name, ...args]) => [String(name).toLowerCase(), ...args.map(String)]))
        .exec();
    } catch (err) {
      throw this.fail('MULTI', err);
    }
    if (!replies) throw this.fail('MULTI', new Error('the transaction was aborted'));
    const failed = replies.find(([e]) => e);
    if (failed) throw this.fail('MULTI', failed[0]);
    return replies.map(([, r]) => r);
  }

  /**
   * Hears `channel` on a connection of its own (a subscribed connection takes no other commands),
   * subscribed before it resolves and again after each reconnect; resolves with its stop.
   */
  async subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const sub = this.client.duplicate();
    sub.on('error', (err: unknown) =>
      this.complaints.log(`gateway: Redis subscriber at ${this.shown}: ${this.safe(err)}`),
    );
    sub.on('message', (ch: string, message: string) => {
      if (ch === channel) onMessage(message);
    });
    try {
      await sub.connect();
      await sub.subscribe(channel);
    } catch (err) {
      sub.disconnect();
      throw this.fail('SUBSCRIBE', err);
    }
    return async () => {
      await sub.quit().catch(() => sub.disconnect());
    };
  }

  /** Logs a failure of something that has no caller to tell (a publish), a few lines a minute at most. */
  complain(line: string): void {
    this.complaints.log(line);
  }

  async close(): Promise<void> {
    this.complaints.flush();
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

function newClient(cfg: ServiceRedis): Client {
  return new Redis(cfg.url, {
    lazyConnect: true,
    // A command while the connection is down fails at once instead of waiting in a queue, and one
    // that Redis does not answer in time fails too: a call waits for no Redis.
    enableOfflineQueue: false,
    commandTimeout: cfg.commandTimeoutMs,
    maxRetriesPerRequest: 1,
    connectTimeout: Math.max(1000, cfg.commandTimeoutMs),
    retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times, 5), 3000),
  });
}

/** The password of a Redis URL, to be redacted wherever it would appear. */
function secretsOf(url: string): string[] {
  try {
    const u = new URL(url);
    return [u.password, decodeURIComponent(u.password)].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}
