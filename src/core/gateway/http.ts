/**
 * The gateway over Streamable HTTP at `http://127.0.0.1:<port>/mcp`, the port from the OS.
 * Who may use it follows the host's loopback rules (../loopback.ts): no browser `Origin`, a loopback
 * `Host` (stops DNS rebinding), a bearer token compared in constant time; a cap on sessions
 * so a runaway client cannot exhaust the editor; and, since any local process can open a socket
 * without the token, the shared connection limits (../connection-limits.ts): a deadline and a
 * cap on sockets that have not sent an authenticated request (the oldest evicted, so a real agent
 * always gets in), and refusals logged at a bounded rate.
 *
 * Both protocol eras on the one endpoint: 2025-11-25 agents get sessions (an SDK streamable
 * transport each); 2026-07-28 agents are served statelessly by the SDK's `createMcpHandler`, a fresh
 * gateway server per exchange, with `subscriptions/listen` fed from the gateway's list changes: one
 * handler per view (profile and tool listing), so a listen stream hears of its own lists only.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { checkLoopbackAccess, generateToken, listenOnLoopback, type AccessVerdict } from '../loopback.js';
import type { Socket } from 'node:net';
import { PendingSockets, RateLimitedLog, type ConnectionLimits } from '../connection-limits.js';
import type { Event } from '../events.js';
import type { Logger } from '../ports.js';
import type { Gateway } from './gateway.js';
import { agentViewOf, type AgentView } from './views.js';
import type { Disposable } from '../ports.js';
import { listenedResources, SharedWatches } from './listen-resources.js';
import { agentIdentity } from './presence.js';

export interface GatewayHttpOptions {
  gateway: Gateway;
  logger: Logger;
  /** Default: a fresh 256-bit token. */
  token?: string;
  /** Most sessions at once; more are refused with 503. Default 32. */
  maxSessions?: number;
  /** Most open TCP connections; default 128. */
  maxConnections?: number;
  /** Sockets that have not authenticated yet: how many and for how long (connection-limits.ts). */
  limits?: ConnectionLimits;
}

export type RequestVerdict = AccessVerdict | { ok: false; status: 404; reason: string };

/** Decides a request before the MCP transport sees it: the path, then the loopback rules with a bearer token. */
export function checkRequest(req: IncomingMessage, token: string, port: number): RequestVerdict {
  const path = (req.url ?? '').split('?')[0] ?? '';
  // `/mcp/<profile>`: a profile's endpoint (views.ts); whether it exists is the gateway's to say.
  if (path !== '/mcp' && !/^\/mcp\/[^/]+$/.test(path)) return { ok: false, status: 404, reason: 'not found' };
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(.+)$/i.exec(auth.trim())?.[1] : undefined;
  return checkLoopbackAccess(req, bearer, token, port);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Connection: 'close' };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="mcp-host-gateway"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The stateless (2026-07-28) serving of one view, with what feeds its listen streams. */
interface ModernEndpoint {
  handler: McpHttpHandler;
  serve: ReturnType<typeof toNodeHandler>;
  watches: SharedWatches;
  lists: Disposable;
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  /** Requests (including a long-lived GET stream) open right now. */
  open: number;
  lastUsed: number;
}

export class GatewayHttpServer {
  private readonly sessions = new Map<string, Session>();
  /** By view (`viewKey`); views are bounded: the profiles that exist × three tool listings. */
  private readonly endpoints = new Map<string, ModernEndpoint>();
  /** Fires when the count of agents that are there may have changed (see `liveSessionCount`). */
  readonly onDidChangeLive: Event<void>;

  private constructor(
    private readonly opts: GatewayHttpOptions,
    private readonly http: HttpServer,
    readonly token: string,
    readonly port: number,
    private readonly refusals: RateLimitedLog,
    private readonly pending: PendingSockets,
  ) {
    this.onDidChangeLive = opts.gateway.onDidChangeAgents;
  }

  /** The stateless serving of `view`, made when its first agent comes. */
  private endpoint(view: AgentView): ModernEndpoint {
    const key = JSON.stringify([view.profile ?? null, view.tools ?? null]);
    const known = this.endpoints.get(key);
    if (known) return known;
    const gateway = this.opts.gateway;
    const onerror = (err: Error): void => this.opts.logger.debug(`gateway: modern request: ${err.message}`);
    const handler = createMcpHandler(() => gateway.createServer('modern', true, view), { legacy: 'reject', onerror });
    const e: ModernEndpoint = {
      handler,
      serve: toNodeHandler(handler, { onerror }),
      watches: new SharedWatches((uris) =>
        gateway.watchResources(uris, (u) => handler.notify.resourceUpdated(u), view),
      ),
      // The gateway's one list-change path (Gateway.watchLists), as for an agent with a connection.
      lists: gateway.watchLists(view, (kinds) => {
        if (kinds.includes('tools')) handler.notify.toolsChanged();
        if (kinds.includes('prompts')) handler.notify.promptsChanged();
        if (kinds.includes('resources')) handler.notify.resourcesChanged();
      }),
    };
    this.endpoints.set(key, e);
    return e;
  }

  /** `http://127.0.0.1:<port>/mcp` */
  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  static async start(opts: GatewayHttpOptions): Promise<GatewayHttpServer> {
    const token = opts.token ?? generateToken();
    const holder: { self?: GatewayHttpServer } = {};
    const http = createServer((req, res) => {
      const self = holder.self;
      if (!self) return refuse(res, 503, 'starting');
      self.handle(req, res).catch((err: unknown) => {
        opts.logger.error(`gateway: request failed: ${err instanceof Error ? err.message : String(err)}`);
        if (!res.headersSent) refuse(res, 500, 'internal error');
        else res.end();
      });
    });
    http.maxConnections = opts.maxConnections ?? 128;
    const refusals = new RateLimitedLog((line) => opts.logger.warn(line), undefined, undefined, undefined, 'gateway');
    const pending = new PendingSockets(
      opts.limits ?? {},
      (why) => refusals.log(`gateway: dropped a connection: ${why}`),
      'authenticated request',
    );
    // Before listening, so no socket escapes the count.
    http.on('connection', (socket: Socket) => pending.add(socket));
    const port = await listenOnLoopback(http);
    const self = new GatewayHttpServer(opts, http, token, port, refusals, pending);
    holder.self = self;
    opts.logger.info(`gateway listening on ${self.url}`);
    return self;
  }

  sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Agents that are there, the gateway's own count (presence.ts): sessions with a connection open
   * now (a client that made a request and went away without ending its session, a health check or
   * a killed process, is not counted) and stateless agents by client, while recently active.
   */
  liveSessionCount(): number {
    return this.opts.gateway.agentCount();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = checkRequest(req, this.token, this.port);
    if (!verdict.ok) {
      // The path only (a query may carry a token), cut short: the line is written by anyone local.
      const path = (req.url ?? '').split('?')[0]!.slice(0, 80);
      this.refusals.log(
        `gateway: refused ${(req.method ?? '').slice(0, 10)} ${JSON.stringify(path)}: ${verdict.reason}`,
      );
      return refuse(res, verdict.status, verdict.reason === 'not found' ? 'not found' : `refused: ${verdict.reason}`);
    }
    // Authenticated: this socket is an agent's, and its pre-authentication clock stops.
    this.pending.forget(req.socket);
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const session = this.sessions.get(sid);
      if (!session) return refuse(res, 404, 'session not found');
      session.open++;
      const there = this.opts.gateway.presence.hold(`session:${sid}`);
      session.lastUsed = Date.now();
      res.once('close', () => {
        session.lastUsed = Date.now();
        session.open--;
        there.dispose();
      });
      if (req.method !== 'POST') return session.transport.handleRequest(req, res);
      // Read here: the SDK reading it itself goes through a web stream made from the Node one, about
      // a tenth of the gateway's time per call.
      const posted = await readJson(req);
      if (posted === TOO_LARGE) return refuse(res, 413, `the body is larger than ${MAX_BODY} bytes`);
      if (posted === undefined) return refuse(res, 400, 'the body is not JSON');
      return session.transport.handleRequest(req, res, posted);
    }
    if (req.method !== 'POST') return refuse(res, 400, 'a session starts with an initialize POST');
    const view = agentViewOf(req.url ?? '', req.headers);
    if (typeof view === 'string') return refuse(res, 404, view);
    if (view.profile !== undefined && !this.opts.gateway.hasProfile(view.profile))
      return refuse(res, 404, `no gateway profile "${view.profile}"`);
    // Read once: the era is decided by the body (the `_meta` envelope), then either leg gets it parsed.
    const body = await readJson(req);
    if (body === TOO_LARGE) return refuse(res, 413, `the body is larger than ${MAX_BODY} bytes`);
    if (body === undefined) return refuse(res, 400, 'the body is not JSON');
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) {
      const endpoint = this.endpoint(view);
      const listen = listenedResources(body);
      const watch = listen && endpoint.watches.add(listen.uris);
      if (watch) res.once('close', () => watch.dispose());
      // A stateless agent is there while a request of it is open (a listen stream) and a while after.
      const meta = (body as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
      const who = agentIdentity(meta?.[CLIENT_INFO_META_KEY], view);
      const presence = this.opts.gateway.presence;
      const there = presence.hold(who);
      res.once('close', () => {
        presence.touch(who);
        there.dispose();
      });
      return endpoint.serve(req, res, body);
    }
    if (this.sessions.size >= (this.opts.maxSessions ?? 32) && !(await this.evictIdle()))
      return refuse(res, 503, 'too many agent sessions');
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, open: 0, lastUsed: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await this.opts.gateway.connect(transport, view, 'caller');
    await transport.handleRequest(req, res, body);
    // Anything but an initialize leaves the transport without a session: nothing will use it again.
    if (!transport.sessionId) await transport.close();
  }

  /**
   * At the cap, an agent that went away without ending its session (killed, crashed) must not
   * lock the others out: the least recently used session with no open request (a live agent
   * keeps its GET stream open) is closed; its agent, should it come back, gets 404 and starts anew.
   */
  private async evictIdle(): Promise<boolean> {
    let victim: Session | undefined;
    for (const s of this.sessions.values()) if (s.open === 0 && (!victim || s.lastUsed < victim.lastUsed)) victim = s;
    if (!victim) return false;
    this.opts.logger.info('gateway: session cap reached; closing the least recently used idle session');
    await victim.transport.close();
    if (victim.transport.sessionId) this.sessions.delete(victim.transport.sessionId);
    return true;
  }

  async dispose(): Promise<void> {
    const endpoints = [...this.endpoints.values()];
    this.endpoints.clear();
    for (const e of endpoints) e.lists.dispose();
    await Promise.all(endpoints.map((e) => e.handler.close().catch(() => undefined)));
    this.pending.dispose();
    this.refusals.flush();
    const all = [...this.sessions.values()].map((s) => s.transport);
    this.sessions.clear();
    await Promise.all(all.map((t) => t.close().catch(() => undefined)));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}

/** The SDK's own bound on a POST body. */
const MAX_BODY = 4 * 1024 * 1024;
const TOO_LARGE = Symbol('too large');

/** The request body as JSON; undefined when it is not JSON. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return TOO_LARGE;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
