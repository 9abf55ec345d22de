/**
 * Change notifications on a 2026-07-28 connection. There is no unsolicited delivery in that era:
 * `list_changed` and `notifications/resources/updated` arrive only on a `subscriptions/listen`
 * stream whose filter names them (resource URIs included, in place of `resources/subscribe`). One
 * stream per connection carries everything the host wants; the SDK dispatches its notifications to
 * the handlers registered for a legacy connection, so the rest of the host sees no difference.
 *
 * The filter is fixed per stream, so a changed set of resource URIs opens a new stream and closes
 * the old one once the new one is acknowledged (nothing is missed in between). A stream that drops
 * while the connection lives is re-opened with backoff, and since anything may have changed during
 * the gap, the handlers then hear every notification the stream covers once.
 */
import type { Client, McpSubscription, ServerCapabilities } from '@modelcontextprotocol/client';
import type { Clock, Disposable, Logger } from '../ports.js';
import { errorMessage } from './errors.js';

type SubscriptionFilter = McpSubscription['honoredFilter'];

/** Backoff of a re-open after a drop: 0.5 s doubling to 30 s; an acknowledged stream resets it. */
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

export interface ListenOptions {
  log: Logger;
  clock: Clock;
  /** Bounds the wait for each stream's acknowledgement. */
  timeoutMs: number;
  /** Delivers a notification to the client's handlers as if the server had sent it (after a gap). */
  replay(method: string, params?: Record<string, unknown>): void;
}

/** The list notifications a server can send, from its capabilities. */
export function listFilter(caps: ServerCapabilities | undefined): SubscriptionFilter {
  return {
    ...(caps?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(caps?.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(caps?.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
}

const LIST_NOTIFICATIONS: [keyof SubscriptionFilter, string][] = [
  ['toolsListChanged', 'notifications/tools/list_changed'],
  ['promptsListChanged', 'notifications/prompts/list_changed'],
  ['resourcesListChanged', 'notifications/resources/list_changed'],
];

export class ListenStream implements Disposable {
  private readonly uris = new Set<string>();
  private current: McpSubscription | undefined;
  /** The reconcile loop in progress; later changes join it (`dirty`). */
  private running: Promise<void> | undefined;
  private dirty = false;
  private retry: Disposable | undefined;
  private failures = 0;
  private disposed = false;

  constructor(
    private readonly client: Client,
    private readonly o: ListenOptions,
  ) {}

  /** Opens the first stream; resolves once it is acknowledged or has failed (a failure retries). */
  start(): Promise<void> {
    return this.reconcile().catch(() => {});
  }

  /** Adds a resource URI to the filter; resolves once a stream carrying it is open. */
  async subscribe(uri: string): Promise<void> {
    if (this.uris.has(uri) && this.current?.honoredFilter.resourceSubscriptions?.includes(uri)) return;
    this.uris.add(uri);
    await this.reconcile();
    if (!this.current?.honoredFilter.resourceSubscriptions?.includes(uri)) {
      this.uris.delete(uri);
      throw new Error(`the server did not accept a subscription to ${uri}`);
    }
  }

  async unsubscribe(uri: string): Promise<void> {
    if (!this.uris.delete(uri)) return;
    await this.reconcile().catch(() => {});
  }

  /** The filter of the open stream (tests, diagnostics). */
  get honored(): SubscriptionFilter | undefined {
    return this.current?.honoredFilter;
  }

  dispose(): void {
    this.disposed = true;
    this.retry?.dispose();
    this.retry = undefined;
    const sub = this.current;
    this.current = undefined;
    void sub?.close().catch(() => {});
  }

  private wanted(): SubscriptionFilter {
    return {
      ...listFilter(this.client.getServerCapabilities()),
      ...(this.uris.size ? { resourceSubscriptions: [...this.uris] } : {}),
    };
  }

  private reconcile(): Promise<void> {
    this.dirty = true;
    this.running ??= (async () => {
      try {
        while (this.dirty && !this.disposed) {
          this.dirty = false;
          await this.open();
        }
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Opens a stream with the filter wanted now, then closes the one it replaces. */
  private async open(): Promise<void> {
    const filter = this.wanted();
    const old = this.current;
    if (!Object.keys(filter).length) {
      this.current = undefined;
      await old?.close();
      return;
    }
    let sub: McpSubscription;
    try {
      sub = await this.client.listen(filter, { timeout: this.o.timeoutMs });
    } catch (err) {
      if (this.disposed || !this.client.transport) throw err;
      this.o.log.warn(`subscriptions/listen failed: ${errorMessage(err)}`);
      // A stream that still runs keeps delivering; with none, try again (and count it as a gap).
      if (!this.current) this.retryLater(true);
      throw err;
    }
    if (this.disposed) {
      await sub.close();
      return;
    }
    this.current = sub;
    this.failures = 0;
    this.o.log.debug(`listening for ${JSON.stringify(sub.honoredFilter)}`);
    void sub.closed.then((cause) => this.onClosed(sub, cause));
    await old?.close();
  }

  private onClosed(sub: McpSubscription, cause: 'local' | 'graceful' | 'remote'): void {
    if (cause === 'local' || this.disposed || this.current !== sub) return;
    this.current = undefined;
    // The connection itself ended: its close disposes this stream.
    if (!this.client.transport) return;
    this.o.log.info(`the subscriptions/listen stream ended (${cause}); re-opening`);
    this.retryLater(true);
  }

  private retryLater(gap: boolean): void {
    if (this.retry || this.disposed) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** this.failures++);
    this.retry = this.o.clock.setTimeout(() => {
      this.retry = undefined;
      void this.reconcile().then(
        () => {
          if (gap && this.current) this.replayGap(this.current.honoredFilter);
        },
        () => {},
      );
    }, delay);
  }

  /** Whatever the stream would have said while it was down may have happened: say it once now. */
  private replayGap(f: SubscriptionFilter): void {
    for (const [key, method] of LIST_NOTIFICATIONS) if (f[key]) this.o.replay(method);
    for (const uri of f.resourceSubscriptions ?? []) this.o.replay('notifications/resources/updated', { uri });
  }
}
