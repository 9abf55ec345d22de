/**
 * The per-person side of upstreamAuth (upstream-auth.ts): one MCP client per (person, server), so a
 * 2025-11-25 session to the upstream is only ever one person's and never carries two people's
 * tokens; each client's requests get the person's current upstream token at send time (renewed by a
 * new exchange near expiry, or once when the upstream answers 401). The pool is capped (the least
 * recently used closed first) and idle clients are closed. The host's own connection to such a
 * server stays what lists its tools (with whatever credential its config gives, the operator's);
 * calls of people never go over it.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  RequestOptions,
  Transport,
} from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { McpHost } from '../../host.js';
import type { GatewayFeatures } from '../features.js';
import type { CallOptions } from '../../host-api.js';
import { currentCaller } from './audit.js';
import { UpstreamTokens, type ExchangeEvents, type PerUserAuth } from './upstream-auth.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface PoolOptions {
  /** Most per-person clients open at once (all servers). Default 256. */
  maxClients?: number;
  /** A client unused this long is closed. Default 10 minutes. */
  idleMs?: number;
  clientInfo?: { name: string; version: string };
  fetch?: Fetch;
  events?: ExchangeEvents;
  /**
   * Wraps each per-person connection's transport as the host wraps its launches' (telemetry's CLIENT
   * spans and the trace context sent upstream, core/telemetry/); none: not observed.
   */
  wrapTransport?: (server: string, transport: Transport) => Transport;
}

/**
 * The SDK request options of a host call's (its deadline, cancellation and progress); the deadline
 * restarts with each progress notification, as the host's does.
 */
function requestOptionsOf(o: CallOptions | undefined): RequestOptions {
  return {
    resetTimeoutOnProgress: true,
    ...(o?.signal ? { signal: o.signal } : {}),
    ...(o?.timeoutMs !== undefined ? { timeout: o.timeoutMs } : {}),
    ...(o?.onProgress ? { onprogress: o.onProgress } : {}),
  };
}

interface Pooled {
  client: Promise<Client>;
  lastUsed: number;
}

export class PerUserPool {
  private readonly clients = new Map<string, Pooled>();
  private readonly timer: NodeJS.Timeout;
  /** Per server: its URL and its people's tokens, made at its first call. */
  private readonly servers = new Map<string, { url: string; tokens: UpstreamTokens }>();

  constructor(
    private readonly perUser: ReadonlyMap<string, PerUserAuth>,
    /** The server's URL now (its config can change while the gateway runs). */
    private readonly urlOf: (server: string) => string | undefined,
    /** The gateway's issuer (the IdP), where its token endpoint is found unless configured. */
    private readonly issuer: string,
    private readonly opts: PoolOptions = {},
  ) {
    const idle = opts.idleMs ?? 600_000;
    this.timer = setInterval(() => this.evictIdle(idle), Math.min(idle, 60_000));
    this.timer.unref();
  }

  has(server: string): boolean {
    return this.perUser.has(server);
  }

  private serverOf(server: string): { url: string; tokens: UpstreamTokens } {
    const url = this.urlOf(server);
    if (!url) throw new Error(`${server}: not an HTTP server; it cannot be called per user`);
    let s = this.servers.get(server);
    if (!s || s.url !== url) {
      s = {
        url,
        tokens: new UpstreamTokens(this.perUser.get(server)!, url, this.issuer, this.opts.events, this.opts.fetch),
      };
      this.servers.set(server, s);
    }
    return s;
  }

  /** Open per-person clients (for tests and metrics). */
  get size(): number {
    return this.clients.size;
  }

  async callTool(
    server: string,
    sub: string,
    subjectToken: string,
    tool: string,
    args: Record<string, unknown>,
    o?: CallOptions,
  ): Promise<CallToolResult> {
    const client = await this.clientFor(server, sub, subjectToken);
    return (await client.callTool({ name: tool, arguments: args }, requestOptionsOf(o))) as CallToolResult;
  }

  /** `resources/read` as the person: the server's wire result, as McpHost.forwardResourceRead gives it. */
  async readResource(
    server: string,
    sub: string,
    subjectToken: string,
    uri: string,
    o?: CallOptions,
  ): Promise<ReadResourceResult> {
    const client = await this.clientFor(server, sub, subjectToken);
    return client.readResource({ uri }, requestOptionsOf(o));
  }

  /** `prompts/get` as the person: the wire result, as McpHost.forwardPrompt gives it. */
  async getPrompt(
    server: string,
    sub: string,
    subjectToken: string,
    name: string,
    args: Record<string, string>,
    o?: CallOptions,
  ): Promise<GetPromptResult> {
    const client = await this.clientFor(server, sub, subjectToken);
    return client.getPrompt({ name, arguments: args }, requestOptionsOf(o));
  }

  /** `op` with the person's own client of `server` (argument completion, features/completions.ts). */
  async withClient<T>(
    server: string,
    sub: string,
    subjectToken: string,
    op: (client: Client) => Promise<T>,
  ): Promise<T> {
    return op(await this.clientFor(server, sub, subjectToken));
  }

  private clientFor(server: string, sub: string, subjectToken: string): Promise<Client> {
    const key = `${server}\0${sub}`;
    const hit = this.clients.get(key);
    if (hit) {
      hit.lastUsed = Date.now();
      // Most recently used last: the cap closes from the front.
      this.clients.delete(key);
      this.clients.set(key, hit);
      return hit.client;
    }
    const s = this.serverOf(server);
    // The person's own subject token of this request: a later request of theirs may carry a newer one.
    const latest = { token: subjectToken };
    const personal = this.personalFetch(s.tokens, sub, () => latest.token);
    const client = (async () => {
      const c = new Client(this.opts.clientInfo ?? { name: 'mcp-host-gateway', version: '0' });
      const transport = new StreamableHTTPClientTransport(new URL(s.url), { fetch: personal });
      await c.connect(this.opts.wrapTransport?.(server, transport) ?? transport);
      return c;
    })();
    const entry: Pooled = { client, lastUsed: Date.now() };
    this.clients.set(key, entry);
    client.catch(() => {
      if (this.clients.get(key) === entry) this.clients.delete(key);
    });
    this.subjects.set(key, latest);
    this.capTo(this.opts.maxClients ?? 256);
    return client;
  }

  /** The newest subject token each (server, person) client exchanges with. */
  private readonly subjects = new Map<string, { token: string }>();

  /** Updates the subject token a pooled client uses for its next exchange. */
  noteSubject(server: string, sub: string, subjectToken: string): void {
    const s = this.subjects.get(`${server}\0${sub}`);
    if (s) s.token = subjectToken;
  }

  /** A fetch that sends the person's upstream token, and on a 401 exchanges once more and retries. */
  private personalFetch(tokens: UpstreamTokens, sub: string, subject: () => string): Fetch {
    const base = this.opts.fetch ?? fetch;
    const send = async (url: string | URL, init: RequestInit | undefined, token: string): Promise<Response> => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return base(url, { ...init, headers });
    };
    return async (url, init) => {
      const token = await tokens.tokenFor(sub, subject());
      const res = await send(url, init, token);
      // A body stream cannot be sent twice; the SDK's POSTs are strings.
      if (res.status !== 401 || (init?.body !== undefined && typeof init.body !== 'string')) return res;
      await res.body?.cancel();
      tokens.forget(sub, token);
      return send(url, init, await tokens.tokenFor(sub, subject()));
    };
  }

  private capTo(max: number): void {
    for (const key of this.clients.keys()) {
      if (this.clients.size <= max) break;
      this.close(key);
    }
  }

  private evictIdle(idleMs: number): void {
    const now = Date.now();
    for (const [key, p] of this.clients) if (now - p.lastUsed >= idleMs) this.close(key);
    for (const s of this.servers.values()) s.tokens.sweep(now);
  }

  private close(key: string): void {
    const p = this.clients.get(key);
    this.clients.delete(key);
    this.subjects.delete(key);
    void p?.client.then((c) => c.close()).catch(() => undefined);
  }

  async dispose(): Promise<void> {
    clearInterval(this.timer);
    const all = [...this.clients.values()];
    this.clients.clear();
    this.subjects.clear();
    await Promise.all(all.map((p) => p.client.then((c) => c.close()).catch(() => undefined)));
  }
}

/**
 * `host` with the requests to per-user servers made as the caller, through `pool`, on whichever path
 * the gateway took (the fast path's `forward*` methods or the SDK server's handlers): tool calls,
 * resource reads, prompts and argument completion. What has no per-person path (subscriptions: the
 * host subscribes once per server and URI for everyone; the host-shaped reads and the Inspector's
 * raw requests, which the gateway does not make) is refused, never sent over the shared connection.
 */
export function perUserHost(host: McpHost, pool: PerUserPool): McpHost {
  const who = (server: string): { sub: string; token: string } => {
    const c = currentCaller.getStore();
    if (!c?.accessToken)
      throw new Error(`${server}: calls to it are made as the caller, and this request has no caller`);
    pool.noteSubject(server, c.sub, c.accessToken);
    return { sub: c.sub, token: c.accessToken };
  };
  const refused = (server: string, what: string): Promise<never> =>
    Promise.reject(
      new Error(
        `${server}: ${what} of a per-user server is not offered by the team gateway (it would not be the caller's own)`,
      ),
    );
  // Each rejects rather than throws: the host's methods are async, and callers chain on their promise.
  const asCaller = <T>(server: string, run: (sub: string, token: string) => Promise<T>): Promise<T> => {
    try {
      const { sub, token } = who(server);
      return run(sub, token);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  };
  // The host's deadlines (a server's `toolTimeout`, MCP_TOOL_TIMEOUT), not the SDK's 60 s.
  const deadline = (server: string, o: CallOptions | undefined, toolCall: boolean): CallOptions => ({
    ...o,
    timeoutMs: o?.timeoutMs ?? host.defaultTimeoutMs(server, toolCall),
  });
  const own: Partial<McpHost> = {
    forwardToolCall: (server, tool, args, o) =>
      pool.has(server)
        ? asCaller(server, (sub, token) => pool.callTool(server, sub, token, tool, args, deadline(server, o, true)))
        : host.forwardToolCall(server, tool, args, o),
    forwardResourceRead: (server, uri, o) =>
      pool.has(server)
        ? asCaller(server, (sub, token) => pool.readResource(server, sub, token, uri, deadline(server, o, false)))
        : host.forwardResourceRead(server, uri, o),
    forwardPrompt: (server, name, args, o) =>
      pool.has(server)
        ? asCaller(server, (sub, token) => pool.getPrompt(server, sub, token, name, args, deadline(server, o, false)))
        : host.forwardPrompt(server, name, args, o),
    withClient: (<T>(server: string, what: string, op: (c: Client) => Promise<T>, o?: CallOptions): Promise<T> => {
      if (!pool.has(server)) return host.withClient(server, what, op, o);
      return what === 'completion/complete'
        ? asCaller(server, (sub, token) => pool.withClient(server, sub, token, op))
        : refused(server, what);
    }) as McpHost['withClient'],
    callTool: (server, ...rest) =>
      pool.has(server) ? refused(server, 'a host-side tool call') : host.callTool(server, ...rest),
    readResource: (server, uri, o) =>
      pool.has(server) ? refused(server, 'a host-side resource read') : host.readResource(server, uri, o),
    getPrompt: (server, name, args, o) =>
      pool.has(server) ? refused(server, 'a host-side prompt') : host.getPrompt(server, name, args, o),
    request: (server, method, params, o) =>
      pool.has(server) ? refused(server, method) : host.request(server, method, params, o),
  };
  return new Proxy(host, {
    get(target, prop) {
      if (Object.hasOwn(own, prop)) return own[prop as keyof McpHost];
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/**
 * `features` with the subscriptions of per-user servers refused by name (either era's: a 2025-11-25
 * `resources/subscribe`, a 2026-07-28 `subscriptions/listen` of a resource): the host holds one
 * subscription per server and URI for every listener, which could not be one person's.
 */
export function perUserFeatures(features: GatewayFeatures, pool: PerUserPool): GatewayFeatures {
  return {
    complete: (...a) => features.complete(...a),
    subscribe: (server, uri, onUpdated) =>
      pool.has(server)
        ? Promise.reject(
            new ProtocolError(
              ProtocolErrorCode.InvalidParams,
              `${server}: resource subscriptions of a per-user server are not offered by the team gateway (${uri})`,
            ),
          )
        : features.subscribe(server, uri, onUpdated),
  };
}
