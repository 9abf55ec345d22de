/**
 * Resource subscriptions: whoever shows a resource subscribes while it is open; the server's
 * `notifications/resources/updated` reaches every listener of that URI, and a reconnect
 * re-subscribes what is still open. One `resources/subscribe` per (server, URI), however many listen.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { Disposable, Logger } from '../ports.js';

type Listener = (uri: string) => void;

export class ResourceSubscriptions {
  /** server → uri → listeners */
  private readonly listeners = new Map<string, Map<string, Set<Listener>>>();

  /** Whether a connected client's server offers `resources/subscribe`. */
  static supported(client: Client): boolean {
    return client.getServerCapabilities()?.resources?.subscribe === true;
  }

  install(server: string, client: Client, log: Logger): void {
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      const set = this.listeners.get(server)?.get(n.params.uri);
      log.debug(`resource updated: ${n.params.uri}${set ? '' : ' (nobody listening)'}`);
      for (const l of set ?? []) l(n.params.uri);
    });
  }

  /** Re-subscribes every URI that is still listened to (the server forgot them with the old session). */
  async resubscribe(server: string, client: Client, log: Logger): Promise<void> {
    if (!ResourceSubscriptions.supported(client)) return;
    for (const uri of this.listeners.get(server)?.keys() ?? []) {
      await client
        .subscribeResource({ uri })
        .catch((err: unknown) =>
          log.warn(`re-subscribing ${uri} failed: ${err instanceof Error ? err.message : String(err)}`),
        );
    }
  }

  /**
   * Adds a listener; `send` runs `resources/subscribe` or `/unsubscribe` on the live client when the
   * first listener comes or the last one goes. Resolves false when the server does not support it.
   */
  async subscribe(
    server: string,
    uri: string,
    listener: Listener,
    send: (method: 'subscribe' | 'unsubscribe') => Promise<boolean>,
  ): Promise<Disposable & { subscribed: boolean }> {
    let byUri = this.listeners.get(server);
    if (!byUri) this.listeners.set(server, (byUri = new Map()));
    let set = byUri.get(uri);
    const first = !set;
    if (!set) byUri.set(uri, (set = new Set()));
    set.add(listener);
    let subscribed = true;
    if (first) {
      subscribed = await send('subscribe').catch(() => false);
    }
    if (!subscribed) this.remove(server, uri, listener);
    return {
      subscribed,
      dispose: () => {
        if (!subscribed) return;
        subscribed = false;
        if (this.remove(server, uri, listener)) void send('unsubscribe').catch(() => false);
      },
    };
  }

  /** True when that was the last listener of the URI. */
  private remove(server: string, uri: string, listener: Listener): boolean {
    const byUri = this.listeners.get(server);
    const set = byUri?.get(uri);
    if (!byUri || !set) return false;
    set.delete(listener);
    if (set.size) return false;
    byUri.delete(uri);
    if (!byUri.size) this.listeners.delete(server);
    return true;
  }
}
