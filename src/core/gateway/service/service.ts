/**
 * The team gateway (`mcp-host serve --http`): the gateway for many people on an address of the
 * operator's choice. In front of the agents' exchanges (../agent-exchanges.ts, the editor's gateway
 * uses the same) it is an OAuth 2.1 protected resource (RFC 9728 metadata, bearer JWTs checked by
 * tokens.ts), picks each person's profile (caller-view.ts), answers health (`/healthz`: the process
 * is alive) and readiness (`/readyz`: config read, servers admitted, not draining), and drains: after
 * `drain()` every new request gets 503 with `Connection: close` while open calls run to their end
 * or the deadline.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { Socket } from 'node:net';
import type { Gateway } from '../gateway.js';
import type { Logger } from '../../ports.js';
import { AgentExchanges } from '../agent-exchanges.js';
import type { GatewayProfile } from '../profiles.js';
import { PendingSockets, RateLimitedLog, type ConnectionLimits } from '../../connection-limits.js';
import { listen, type ListenOptions } from './listen.js';
import { TokenVerifier, type TokenVerdict } from './tokens.js';
import { callerView } from './caller-view.js';
import { currentCaller } from './audit.js';
import type { ServiceAuth } from './config.js';
import { countedCall, type CallLimiter } from './rate-limit.js';
import type { Refusal } from '../agent-exchanges.js';

export interface GatewayServiceOptions {
  gateway: Gateway;
  logger: Logger;
  auth: ServiceAuth;
  /** Read live: the profiles and who may use each. */
  profiles: () => Readonly<Record<string, GatewayProfile>>;
  listen: ListenOptions;
  /** Most 2025-11-25 sessions at once. Default 1024. */
  maxSessions?: number;
  /** Most open TCP connections. Default 4096. */
  maxConnections?: number;
  /** Connections that have not sent a valid token yet: how many, for how long. Default 256, 10 s. */
  limits?: ConnectionLimits;
  /** What several processes share (core/cluster/, over Redis); none: this process alone. */
  shared?: SharedState;
  /** Calls per person (rate-limit.ts); none: no limit. */
  rateLimit?: CallLimiter;
  /** Hears each call refused by the rate limit (the audit log). */
  onRateLimited?: (sub: string, call: NonNullable<ReturnType<typeof countedCall>>) => void;
}

/** The state a gateway process shares with the others behind the same balancer. */
export interface SharedState {
  /** Each view's `subscriptions/listen` bus, by the view's key. */
  busFor(viewKey: string): ServerEventBus;
  /**
   * `open` hears the key of every view some process serves modern agents: this one serves it too,
   * so the changes it sees reach listeners elsewhere.
   */
  onViews(open: (viewKey: string) => void): void;
  /** What `/healthz` says of it (connected, round trips): numbers and booleans, no secret. */
  health(): Record<string, unknown>;
}

const PRM_PATH = '/.well-known/oauth-protected-resource';
/** The JSON-RPC error code of a call over the rate limit (an implementation-defined server error). */
export const RATE_LIMITED = -32029;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  send(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
}

/** The bearer token of a request tokens.ts accepted. */
function bearerOf(header: string | undefined): string | undefined {
  return typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
}

/** A `subscriptions/listen` holds its response open by design, as a GET stream does: not an open call. */
function isStream(body: unknown): boolean {
  return (body as { method?: unknown } | undefined)?.method === 'subscriptions/listen';
}

export class GatewayService {
  private readonly exchanges: AgentExchanges;
  private draining = false;
  private ready = false;
  /** Calls open now (not streams): what a drain waits for. */
  private open = 0;
  private readonly idle = new Set<() => void>();
  private readonly refusals: RateLimitedLog;

  private constructor(
    private readonly opts: GatewayServiceOptions,
    private readonly verifier: TokenVerifier,
    private readonly http: Server,
    /** `https://host:port`, as listened on. */
    readonly origin: string,
    private readonly pending: PendingSockets,
  ) {
    this.exchanges = new AgentExchanges(
      opts.gateway,
      opts.logger,
      refuse,
      opts.maxSessions ?? 1024,
      opts.shared && ((key) => opts.shared!.busFor(key)),
    );
    this.refusals = new RateLimitedLog((l) => opts.logger.warn(l), undefined, undefined, undefined, 'gateway');
    opts.shared?.onViews((key) => this.exchanges.openView(key));
  }

  static async start(opts: GatewayServiceOptions): Promise<GatewayService> {
    const holder: { self?: GatewayService } = {};
    const { server, origin } = await listen(opts.listen, (req, res) => {
      const self = holder.self;
      if (!self) return refuse(res, 503, 'starting', { 'Retry-After': '1' });
      self.handle(req, res).catch((err: unknown) => {
        opts.logger.error(`gateway: request failed: ${err instanceof Error ? err.message : String(err)}`);
        if (!res.headersSent) refuse(res, 500, 'internal error');
        else res.end();
      });
    });
    server.maxConnections = opts.maxConnections ?? 4096;
    // Anyone who can reach the port can open sockets without a token: a cap and a deadline on those
    // (the oldest dropped, so a real agent gets in during a flood), as on the loopback gateway.
    const pending = new PendingSockets(
      { maxPending: 256, handshakeTimeoutMs: 10_000, ...opts.limits },
      (why) => opts.logger.debug(`gateway: dropped a connection: ${why}`),
      'authenticated request',
    );
    // Over TLS a request's socket is the TLS one, there once its handshake is done (bounded in listen.ts).
    server.on(opts.listen.tls ? 'secureConnection' : 'connection', (socket: Socket) => pending.add(socket));
    const resource = opts.auth.resource ?? `${origin}/mcp`;
    const self = new GatewayService(opts, new TokenVerifier(opts.auth, resource), server, origin, pending);
    holder.self = self;
    opts.logger.info(`gateway listening on ${origin}/mcp (resource ${resource})`);
    return self;
  }

  /** The resource tokens must be for, and where agents reach the gateway unless a proxy says otherwise. */
  get resource(): string {
    return this.verifier.resource;
  }

  get url(): string {
    return `${this.origin}/mcp`;
  }

  /** The protected resource metadata's URL for the resource (RFC 9728 §3.1: the path after the well-known one). */
  get metadataUrl(): string {
    const r = new URL(this.resource);
    return `${r.origin}${PRM_PATH}${r.pathname === '/' ? '' : r.pathname}`;
  }

  /** Readiness: the config is read and the servers admitted (the caller says when). */
  markReady(): void {
    this.ready = true;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === '/healthz')
      return send(res, 200, { status: 'alive', ...(this.opts.shared ? { shared: this.opts.shared.health() } : {}) });
    if (path === '/readyz')
      return this.ready && !this.draining
        ? send(res, 200, { status: 'ready' })
        : send(res, 503, { status: this.draining ? 'draining' : 'starting' });
    if (path === PRM_PATH || path.startsWith(`${PRM_PATH}/`)) return this.metadata(res);
    if (path !== '/mcp' && !/^\/mcp\/[^/]+$/.test(path)) return refuse(res, 404, 'not found');
    if (this.draining)
      return refuse(res, 503, 'the gateway is draining: retry on another process', {
        Connection: 'close',
        'Retry-After': '1',
      });
    const release = this.countOpen(req, res);
    // A browser page may not drive the gateway with a token it got hold of: agents send no Origin.
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== new URL(this.resource).origin)
      return refuse(res, 403, 'browser origin refused');
    const verdict = await this.verifier.verify(req.headers.authorization);
    if (!verdict.ok && verdict.status === 503) {
      this.refusals.log(`gateway: cannot check tokens: ${verdict.reason}`);
      return refuse(res, 503, 'the authorization server cannot be reached', { 'Retry-After': '5' });
    }
    if (!verdict.ok) return this.unauthorized(req, res, verdict);
    // Authenticated: this socket is a person's, and its pre-authentication clock stops.
    this.pending.forget(req.socket);
    const caller = verdict.caller;
    const chosen = callerView(req.url ?? '', req.headers, this.opts.profiles(), caller);
    if (!chosen.ok) {
      this.refusals.log(`gateway: refused ${caller.sub.slice(0, 80)} at ${path.slice(0, 80)}: ${chosen.reason}`);
      return refuse(res, chosen.status, chosen.reason);
    }
    await currentCaller.run({ sub: caller.sub, accessToken: bearerOf(req.headers.authorization) }, () =>
      this.exchanges.serve(req, res, {
        view: () => chosen.view,
        owner: caller.sub,
        onBody: (body) => {
          if (isStream(body)) release();
        },
        ...(this.opts.rateLimit ? { admit: (body: unknown) => this.admit(caller.sub, body) } : {}),
      }),
    );
  }

  /**
   * A call is open from the moment it is taken, not once its token is checked or its body read: a
   * drain that starts meanwhile must wait for it too (a balancer sent it before it saw the drain).
   * Returns what ends it early (a listen stream is not a call).
   */
  private countOpen(req: IncomingMessage, res: ServerResponse): () => void {
    let counted = req.method !== 'GET';
    if (counted) this.open++;
    const release = (): void => {
      if (!counted) return;
      counted = false;
      this.open--;
      if (this.open === 0) for (const f of [...this.idle]) f();
    };
    res.once('close', release);
    return release;
  }

  /**
   * Over the rate limit: HTTP 429 with `Retry-After` (what balancers, proxies and HTTP clients know)
   * and, as its body, the JSON-RPC error for the request's id (what an SDK client shows the agent).
   */
  private async admit(sub: string, body: unknown): Promise<Refusal | undefined> {
    const call = countedCall(body);
    if (!call) return undefined;
    const verdict = await this.opts.rateLimit!.take(sub);
    if (verdict.ok) return undefined;
    const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    this.refusals.log(`gateway: rate limit: refused ${call.method} of ${sub.slice(0, 80)} (retry in ${seconds} s)`);
    this.opts.onRateLimited?.(sub, call);
    return {
      status: 429,
      headers: { 'Retry-After': String(seconds) },
      body: {
        jsonrpc: '2.0',
        id: call.id,
        error: {
          code: RATE_LIMITED,
          message: `rate limit: too many calls; retry in ${seconds} s`,
          data: { retryAfterSeconds: seconds },
        },
      },
    };
  }

  private metadata(res: ServerResponse): void {
    const auth = this.opts.auth;
    send(res, 200, {
      resource: this.resource,
      authorization_servers: [auth.issuer],
      bearer_methods_supported: ['header'],
      ...(auth.requiredScopes.length ? { scopes_supported: auth.requiredScopes } : {}),
      resource_name: 'MCP Host team gateway',
    });
  }

  /** 401 (sign in) or 403 (more scope), with the challenge MCP clients follow (RFC 6750 §3, RFC 9728 §5.1). */
  private unauthorized(
    req: IncomingMessage,
    res: ServerResponse,
    v: Extract<TokenVerdict, { ok: false; status: 401 | 403 }>,
  ): void {
    const parts = [`resource_metadata="${this.metadataUrl}"`];
    if (v.error) parts.unshift(`error="${v.error}"`);
    const scopes = this.opts.auth.requiredScopes;
    if (scopes.length) parts.push(`scope="${scopes.join(' ')}"`);
    if (v.error)
      this.refusals.log(`gateway: refused a token at ${(req.url ?? '').split('?')[0]!.slice(0, 80)}: ${v.reason}`);
    refuse(res, v.status, v.status === 401 ? `unauthorized: ${v.reason}` : `forbidden: ${v.reason}`, {
      'WWW-Authenticate': `Bearer ${parts.join(', ')}`,
    });
  }

  /** Calls open now (streams not counted). */
  openCalls(): number {
    return this.open;
  }

  /**
   * Stops taking requests (503, `Connection: close`; `/readyz` 503 so a balancer sends no more),
   * waits for open calls up to `deadlineMs` and for `graceMs` at least (the balancer's health check
   * seeing the 503), then closes everything. Resolves with the calls the deadline cut off.
   */
  async drain(deadlineMs: number, graceMs = 0): Promise<number> {
    this.draining = true;
    const started = Date.now();
    this.opts.logger.info(`gateway: draining (${this.open} open call(s), up to ${deadlineMs} ms)`);
    // Kept-alive sockets are not closed now: a request a balancer is sending on one at this moment
    // would be cut, which it cannot tell from a crash. Every answer from here on is a 503 with
    // `Connection: close`, which a balancer retries on another process.
    if (this.open > 0) {
      let timer: NodeJS.Timeout | undefined;
      let done: (() => void) | undefined;
      await new Promise<void>((resolve) => {
        done = resolve;
        this.idle.add(resolve);
        timer = setTimeout(resolve, deadlineMs);
      }).finally(() => {
        clearTimeout(timer);
        if (done) this.idle.delete(done);
      });
    }
    // Until its health check has seen /readyz turn 503, the balancer still sends requests here: they
    // get 503 (and go elsewhere), not a closed socket, which a balancer must not retry (the call may have run).
    const grace = Math.min(graceMs, deadlineMs) - (Date.now() - started);
    if (grace > 0) await new Promise((resolve) => setTimeout(resolve, grace));
    const cut = this.open;
    if (cut > 0) this.opts.logger.warn(`gateway: drain deadline passed with ${cut} call(s) open; closing them`);
    await this.dispose();
    return cut;
  }

  async dispose(): Promise<void> {
    this.draining = true;
    this.pending.dispose();
    this.refusals.flush();
    await this.exchanges.dispose();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
