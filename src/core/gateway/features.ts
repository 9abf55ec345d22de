/**
 * Resource subscriptions and argument completion through the gateway. An agent subscribes to a URI
 * it was shown; the host subscribes once per (server, URI) however many listen (the editor's own
 * open documents among them), and each `notifications/resources/updated` goes back to every agent
 * subscribed, under the URI that agent used. `completion/complete` for a gateway prompt or resource
 * template goes to the server that offers it, under the server's own name or template.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';
import type { McpHost } from '../host.js';
import { completeArgument, type CompletionRef, type CompletionResult } from '../features/completions.js';
import { ResourceSubscriptions } from '../features/subscriptions.js';
import type { Disposable } from '../ports.js';
import { resolveResourceUri, type Catalog } from './catalog.js';

/** What the gateway needs from the host beyond calls; without it, it offers neither feature. */
export interface GatewayFeatures {
  /** Completions for `ref` (in the server's own names) from `server`; none when it has no completions. */
  complete(
    server: string,
    ref: CompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<CompletionResult>;
  /**
   * Calls `onUpdated` on each `notifications/resources/updated` for `uri` from `server` until
   * disposed. Rejects when the server does not support subscriptions.
   */
  subscribe(server: string, uri: string, onUpdated: () => void): Promise<Disposable>;
}

/** The features of a real host (the host's subscriptions and clients). */
export function gatewayFeatures(host: McpHost): GatewayFeatures {
  return {
    complete: (server, ref, argument, context, signal) =>
      host.withClient(server, 'completion/complete', (c) => completeArgument(c, ref, argument, context, { signal }), {
        signal,
      }),
    async subscribe(server, uri, onUpdated) {
      const sub = await host.features.subscriptions.subscribe(server, uri, onUpdated, (method) =>
        host.withClient(server, `resources/${method}`, async (c) => {
          if (!ResourceSubscriptions.supported(c)) return false;
          await (method === 'subscribe' ? c.subscribeResource({ uri }) : c.unsubscribeResource({ uri }));
          return true;
        }),
      );
      if (!sub.subscribed)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `${server} does not support resource subscriptions (${uri})`,
        );
      return sub;
    },
  };
}

/**
 * The one way an upstream resource update reaches an agent, of either era (a 2025-11-25 agent's
 * `resources/subscribe`, a 2026-07-28 agent's `subscriptions/listen`, listen-resources.ts):
 * subscribes upstream to what `uri` names in `catalog` and calls `onUpdated` (with the agent's own
 * URI) on each update until disposed. Rejects for a URI no exposed server offers, or a server that
 * does not support subscriptions.
 */
export async function watchResource(
  catalog: Catalog,
  features: GatewayFeatures,
  uri: string,
  onUpdated: () => void,
): Promise<Disposable> {
  const target = resolveResourceUri(catalog, uri);
  if (!target) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no exposed server offers the resource ${uri}`);
  return features.subscribe(target.server, target.uri, onUpdated);
}

/** The server capabilities these handlers serve. */
export const FEATURE_CAPABILITIES = { completions: {} } as const;

/**
 * Installs subscribe/unsubscribe/complete on one agent's SDK server; `catalog()` is what the
 * gateway exposes now. Dispose when the agent leaves: its subscriptions end with it.
 */
export function installFeatureHandlers(agent: Server, catalog: () => Catalog, features: GatewayFeatures): Disposable {
  /** The agent's URI → its subscription; `sub` is set once the host has subscribed. */
  const subs = new Map<string, { sub?: Disposable; gone: boolean }>();
  let closed = false;
  const end = (rec: { sub?: Disposable; gone: boolean }): void => {
    rec.gone = true;
    rec.sub?.dispose();
  };

  agent.setRequestHandler('resources/subscribe', async (req) => {
    const uri = req.params.uri;
    if (subs.has(uri)) return {};
    const rec: { sub?: Disposable; gone: boolean } = { gone: false };
    subs.set(uri, rec);
    try {
      const sub = await watchResource(catalog(), features, uri, () => {
        // Under the URI this agent subscribed with (a wrapped one stays wrapped).
        if (!rec.gone) agent.sendResourceUpdated({ uri }).catch(() => undefined);
      });
      // Unsubscribed (or gone) while the host was subscribing.
      if (rec.gone || closed) sub.dispose();
      else rec.sub = sub;
    } catch (err) {
      if (subs.get(uri) === rec) subs.delete(uri);
      throw err instanceof ProtocolError
        ? err
        : new ProtocolError(ProtocolErrorCode.InternalError, err instanceof Error ? err.message : String(err));
    }
    return {};
  });

  agent.setRequestHandler('resources/unsubscribe', (req) => {
    const rec = subs.get(req.params.uri);
    subs.delete(req.params.uri);
    if (rec) end(rec);
    return {};
  });

  agent.setRequestHandler('completion/complete', async (req, ctx) => {
    const { ref, argument, context } = req.params;
    const c = catalog();
    let server: string;
    let upstream: CompletionRef;
    if (ref.type === 'ref/prompt') {
      const p = c.prompts.find((x) => x.name === ref.name);
      if (!p) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown prompt "${ref.name}"`);
      server = p.prompt.server;
      upstream = { type: 'ref/prompt', name: p.prompt.name };
    } else {
      const t = c.templates.find((x) => x.uriTemplate === ref.uri);
      if (!t) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no exposed resource template ${ref.uri}`);
      server = t.template.server;
      upstream = { type: 'ref/resource', uri: t.template.uriTemplate };
    }
    try {
      const r = await features.complete(server, upstream, argument, context?.arguments, ctx.mcpReq.signal);
      return {
        completion: {
          values: r.values,
          ...(r.total !== undefined ? { total: r.total } : {}),
          ...(r.hasMore !== undefined ? { hasMore: r.hasMore } : {}),
        },
      };
    } catch (err) {
      throw err instanceof ProtocolError
        ? err
        : new ProtocolError(ProtocolErrorCode.InternalError, err instanceof Error ? err.message : String(err));
    }
  });

  return {
    dispose: () => {
      closed = true;
      for (const rec of subs.values()) end(rec);
      subs.clear();
    },
  };
}
