/**
 * The gateway over Streamable HTTP at `http://127.0.0.1:<port>/mcp`, the port from the OS.
 * Who may use it follows the host's loopback rules (../loopback.ts): no browser `Origin`, a loopback
 * `Host` (stops DNS rebinding), a bearer token compared in constant time; a cap on sessions
 * so a runaway client cannot exhaust the editor; and, since any local process can open a socket
 * without the token, the shared connection limits (../connection-limits.ts): a deadline and a
 * cap on sockets that have not sent an authenticated request (the oldest evicted, so a real agent
 * always gets in), and refusals logged at a bounded rate.
 *
 * What an agent is served, of either era, is agent-exchanges.ts's, shared with the team gateway
 * (service/).
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { checkLoopbackAccess, generateToken, listenOnLoopback, type AccessVerdict } from '../loopback.js';
import type { Socket } from 'node:net';
import { PendingSockets, RateLimitedLog, type ConnectionLimits } from '../connection-limits.js';
import type { Event } from '../events.js';
import type { Logger } from '../ports.js';
import type { Gateway } from './gateway.js';
import { agentViewOf } from './views.js';
import { AgentExchanges } from './agent-exchanges.js';

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

export class GatewayHttpServer {
  private readonly exchanges: AgentExchanges;
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
    this.exchanges = new AgentExchanges(opts.gateway, opts.logger, refuse, opts.maxSessions);
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
    return this.exchanges.sessionCount();
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
    return this.exchanges.serve(req, res, { view: () => agentViewOf(req.url ?? '', req.headers) });
  }

  async dispose(): Promise<void> {
    this.pending.dispose();
    this.refusals.flush();
    await this.exchanges.dispose();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
