/**
 * `subscriptions/listen` events across gateway processes: the SDK's `ServerEventBus` (the seam
 * `createMcpHandler` takes, "multi-process deployments implement this interface over their own
 * pub/sub") over one Redis channel. Each view's endpoint (agent-exchanges.ts) has a bus of its own;
 * an event is delivered at once to this process's listen streams of that view and published, with
 * the view's key and this process's id, for the others, which deliver it to theirs. A process
 * never hears its own events back (the SDK's rule: no echo), and a Redis that is down costs the
 * other processes the event, never this process's own listeners.
 *
 * A process publishes the changes of the views it has an endpoint for, and it makes one when an
 * agent of that view comes. So that a change on B reaches a listener on A even when no modern
 * agent of that view ever came to B, each view that gets an endpoint anywhere is announced (and
 * kept in the set `<prefix>views` for processes that start later), and every process opens it too.
 */
import { randomUUID } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { RedisLink } from './link.js';

type Listener = (event: ServerEvent) => void;

interface Wire {
  /** The publishing process. */
  o: string;
  /** The view's key (gateway `viewKey`). */
  v: string;
  /** An event, or none: the view is served somewhere (an announcement). */
  e?: ServerEvent;
}

const KINDS = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated']);

/** An event from the wire, or undefined for anything that is not one. */
function eventOf(raw: unknown): ServerEvent | undefined {
  const e = raw as { kind?: unknown; uri?: unknown; params?: unknown } | undefined;
  if (typeof e?.kind !== 'string' || !KINDS.has(e.kind)) return undefined;
  if (e.kind === 'resource_updated' && typeof e.uri !== 'string') return undefined;
  return e as ServerEvent;
}

class ViewBus implements ServerEventBus {
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly key: string,
    private readonly hub: EventHub,
  ) {}

  publish(event: ServerEvent): void {
    this.deliver(event);
    this.hub.send(this.key, event);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(event: ServerEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // One stream's listener failing stops no other (as the SDK's InMemoryServerEventBus).
      }
    }
  }
}

export class EventHub {
  private readonly origin = randomUUID();
  private readonly buses = new Map<string, ViewBus>();
  private published = 0;
  private received = 0;
  /** Views served somewhere, heard before anyone asked (`onViews`). */
  private readonly known = new Set<string>();
  private openView: ((viewKey: string) => void) | undefined;

  private constructor(
    private readonly link: RedisLink,
    private readonly channel: string,
    private readonly keyPrefix: string,
    private readonly stopSubscriber: () => Promise<void>,
  ) {}

  /** Subscribed before it resolves: no event published after that is missed. */
  static async start(link: RedisLink, keyPrefix: string): Promise<EventHub> {
    const channel = `${keyPrefix}events`;
    const holder: { hub?: EventHub } = {};
    const stop = await link.subscribe(channel, (message) => holder.hub?.hear(message));
    const hub = new EventHub(link, channel, keyPrefix, stop);
    holder.hub = hub;
    try {
      for (const v of await link.command<string[]>('SMEMBERS', hub.viewsKey(keyPrefix))) hub.known.add(v);
    } catch (err) {
      await stop();
      throw err;
    }
    return hub;
  }

  private viewsKey(keyPrefix: string): string {
    return `${keyPrefix}views`;
  }

  /** The bus of one view (its key: gateway `viewKey`); a new one is announced to the others. */
  busFor(viewKey: string): ServerEventBus {
    let bus = this.buses.get(viewKey);
    if (bus) return bus;
    this.buses.set(viewKey, (bus = new ViewBus(viewKey, this)));
    if (!this.known.has(viewKey)) {
      this.known.add(viewKey);
      const wire: Wire = { o: this.origin, v: viewKey };
      this.link
        .multi([
          ['SADD', this.viewsKey(this.keyPrefix), viewKey],
          ['PUBLISH', this.channel, JSON.stringify(wire)],
        ])
        .catch((err: unknown) =>
          this.link.complain(`gateway: a view was not announced to the other processes: ${this.link.safe(err)}`),
        );
    }
    return bus;
  }

  /** `open` hears every view served by some process: those known now, and each one announced later. */
  onViews(open: (viewKey: string) => void): void {
    this.openView = open;
    for (const v of this.known) if (!this.buses.has(v)) open(v);
  }

  send(viewKey: string, event: ServerEvent): void {
    this.published++;
    const wire: Wire = { o: this.origin, v: viewKey, e: event };
    this.link
      .command('PUBLISH', this.channel, JSON.stringify(wire))
      .catch((err: unknown) =>
        this.link.complain(`gateway: a listen event did not reach the other processes: ${this.link.safe(err)}`),
      );
  }

  private hear(message: string): void {
    let wire: Partial<Wire>;
    try {
      wire = JSON.parse(message) as Partial<Wire>;
    } catch {
      return;
    }
    if (wire.o === this.origin || typeof wire.v !== 'string') return;
    if (wire.e === undefined) {
      this.known.add(wire.v);
      if (!this.buses.has(wire.v)) this.openView?.(wire.v);
      return;
    }
    const event = eventOf(wire.e);
    if (!event) return;
    this.received++;
    this.buses.get(wire.v)?.deliver(event);
  }

  stats(): { eventsPublished: number; eventsReceived: number; viewsServed: number } {
    return { eventsPublished: this.published, eventsReceived: this.received, viewsServed: this.buses.size };
  }

  async close(): Promise<void> {
    this.buses.clear();
    await this.stopSubscriber();
  }
}
