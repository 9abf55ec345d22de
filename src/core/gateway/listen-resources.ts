/**
 * Resource updates for modern (2026-07-28) agents. They ask for them on `subscriptions/listen`
 * (`resourceSubscriptions`), which the SDK's serving entry answers itself, so the gateway learns the
 * URIs from the listen request as it passes (http.ts, `tapListen` for stdio), subscribes upstream
 * for as long as the stream is open and publishes each update under the agent's own URI.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { Disposable, Logger } from '../ports.js';
import type { Catalog } from './catalog.js';
import { watchResource, type GatewayFeatures } from './features.js';

/** The URIs a `subscriptions/listen` request asks updates for, or none. */
export function listenedResources(message: unknown): { id: string | number; uris: string[] } | undefined {
  const m = message as {
    method?: unknown;
    id?: unknown;
    params?: { notifications?: { resourceSubscriptions?: unknown } };
  };
  if (m?.method !== 'subscriptions/listen' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return undefined;
  const uris = m.params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return undefined;
  const strings = uris.filter((u): u is string => typeof u === 'string');
  return strings.length > 0 ? { id: m.id, uris: strings } : undefined;
}

/** Subscribes upstream to each URI an exposed server offers; `onUpdated` hears the agent's URI. */
export function watchResources(
  catalog: Catalog,
  features: GatewayFeatures,
  uris: string[],
  onUpdated: (uri: string) => void,
  logger: Logger,
): Disposable {
  let disposed = false;
  const subs: Disposable[] = [];
  for (const uri of new Set(uris)) {
    watchResource(catalog, features, uri, () => onUpdated(uri)).then(
      (sub) => (disposed ? sub.dispose() : subs.push(sub)),
      (err: unknown) => logger.debug(`gateway: listen for ${uri}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
  return {
    dispose: () => {
      disposed = true;
      for (const s of subs.splice(0)) s.dispose();
    },
  };
}

/**
 * One upstream watch per URI however many listen streams name it: the SDK's listen router sends
 * each published update to every stream that asked for that URI, so publishing once per stream
 * would repeat it.
 */
export class SharedWatches {
  private readonly byUri = new Map<string, { users: number; watch?: Disposable }>();

  constructor(private readonly watch: (uris: string[]) => Disposable | undefined) {}

  add(uris: string[]): Disposable {
    const mine = [...new Set(uris)];
    for (const uri of mine) {
      const entry = this.byUri.get(uri) ?? { users: 0 };
      if (entry.users++ === 0) entry.watch = this.watch([uri]);
      this.byUri.set(uri, entry);
    }
    let done = false;
    return {
      dispose: () => {
        if (done) return;
        done = true;
        for (const uri of mine) {
          const entry = this.byUri.get(uri);
          if (!entry || --entry.users > 0) continue;
          entry.watch?.dispose();
          this.byUri.delete(uri);
        }
      },
    };
  }
}

/**
 * Wraps the transport `serveStdio` owns so the listen requests it carries are seen first:
 * `onListen` returns what to dispose when that listen ends (its cancellation, or the connection).
 */
export function tapListen(inner: Transport, onListen: (uris: string[]) => Disposable | undefined): Transport {
  const open = new Map<string | number, Disposable>();
  const endAll = (): void => {
    for (const d of open.values()) d.dispose();
    open.clear();
  };
  const tap: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  inner.onmessage = (message: JSONRPCMessage, extra) => {
    const listen = listenedResources(message);
    if (listen) {
      const watch = onListen(listen.uris);
      if (watch) open.set(listen.id, watch);
    }
    const m = message as { method?: string; params?: { requestId?: string | number } };
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) {
      open.get(m.params.requestId)?.dispose();
      open.delete(m.params.requestId);
    }
    tap.onmessage?.(message, extra);
  };
  inner.onclose = () => {
    endAll();
    tap.onclose?.();
  };
  inner.onerror = (err) => tap.onerror?.(err);
  return tap;
}
