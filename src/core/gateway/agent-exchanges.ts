/**
 * The agents' side of the gateway over HTTP, whoever listens (http.ts on loopback for the editor
 * and `serve`, service/service.ts for a team): both protocol eras on one endpoint. 2025-11-25
 * agents get sessions (an SDK streamable transport each); 2026-07-28 agents are served statelessly
 * by the SDK's `createMcpHandler`, a fresh gateway server per exchange, with `subscriptions/listen`
 * fed from the gateway's list changes: one handler per view (profile and tool listing), so a listen
 * stream hears of its own lists only. The caller has decided who may call and with what view.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import type { Disposable, Logger } from '../ports.js';
import type { Gateway } from './gateway.js';
import type { AgentView } from './views.js';
import { listenedResources, SharedWatches } from './listen-resources.js';
import { agentIdentity } from './presence.js';
import { viewKey } from './agent.js';

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
  /** Who opened it (the team gateway's token subject): nobody else may use its id. */
  owner?: string;
}

/** Who is calling and what they are shown; `view` a message (404) when the path named a bad view. */
export interface AgentCaller {
  view: () => AgentView | string;
  /** The authenticated person (service/), bound to the sessions they open; none on loopback. */
  owner?: string;
  /** Hears each parsed POST body before it is served (the team gateway's drain and audit). */
  onBody?: (body: unknown) => void;
  /** Decides whether a parsed POST body is served: undefined, or the answer instead (the team gateway's rate limit). */
  admit?: (body: unknown) => Promise<Refusal | undefined>;
}

/** An answer given instead of serving a request. */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type Refuse = (res: ServerResponse, status: number, message: string) => void;

export class AgentExchanges {
  private readonly sessions = new Map<string, Session>();
  /** By view; views are bounded: the profiles that exist × three tool listings. */
  private readonly endpoints = new Map<string, ModernEndpoint>();

  constructor(
    private readonly gateway: Gateway,
    private readonly logger: Logger,
    private readonly refuse: Refuse,
    private readonly maxSessions = 32,
    /**
     * Each view's `subscriptions/listen` bus by its key; several processes share theirs
     * (core/cluster/). Default: the SDK's in-process one.
     */
    private readonly busFor?: (viewKey: string) => ServerEventBus,
  ) {}

  sessionCount(): number {
    return this.sessions.size;
  }

  /** The stateless serving of `view`, made when its first agent comes. */
  private endpoint(view: AgentView): ModernEndpoint {
    const key = viewKey(view);
    const known = this.endpoints.get(key);
    if (known) return known;
    const gateway = this.gateway;
    const onerror = (err: Error): void => this.logger.debug(`gateway: modern request: ${err.message}`);
    const bus = this.busFor?.(key);
    const handler = createMcpHandler(() => gateway.createServer('modern', true, view), {
      legacy: 'reject',
      onerror,
      ...(bus ? { bus } : {}),
    });
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

  /**
   * Serves the view of `key` (`viewKey`) as if an agent had come for it, so its list changes are
   * published (another process has listeners of it). A key naming no profile that exists is ignored.
   */
  openView(key: string): void {
    let view: AgentView;
    try {
      const [profile, tools] = JSON.parse(key) as [unknown, unknown];
      if (
        (profile !== null && typeof profile !== 'string') ||
        (tools !== null && tools !== 'full' && tools !== 'search')
      )
        return;
      view = { ...(profile !== null ? { profile } : {}), ...(tools !== null ? { tools } : {}) };
    } catch {
      return;
    }
    if (view.profile !== undefined && !this.gateway.hasProfile(view.profile)) return;
    if (viewKey(view) === key) this.endpoint(view);
  }

  /** One authorized request of an agent. */
  async serve(req: IncomingMessage, res: ServerResponse, caller: AgentCaller): Promise<void> {
    const refuse = this.refuse;
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const session = this.sessions.get(sid);
      // Another person's session id is as good as none: the same answer, so ids cannot be probed.
      if (!session || session.owner !== caller.owner) return refuse(res, 404, 'session not found');
      session.open++;
      const there = this.gateway.presence.hold(`session:${sid}`);
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
      caller.onBody?.(posted);
      if (await this.refused(res, caller, posted)) return;
      return session.transport.handleRequest(req, res, posted);
    }
    if (req.method !== 'POST') return refuse(res, 400, 'a session starts with an initialize POST');
    const view = caller.view();
    if (typeof view === 'string') return refuse(res, 404, view);
    if (view.profile !== undefined && !this.gateway.hasProfile(view.profile))
      return refuse(res, 404, `no gateway profile "${view.profile}"`);
    // Read once: the era is decided by the body (the `_meta` envelope), then either leg gets it parsed.
    const body = await readJson(req);
    if (body === TOO_LARGE) return refuse(res, 413, `the body is larger than ${MAX_BODY} bytes`);
    if (body === undefined) return refuse(res, 400, 'the body is not JSON');
    caller.onBody?.(body);
    if (await this.refused(res, caller, body)) return;
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) return this.serveModern(req, res, body, view);
    if (this.sessions.size >= this.maxSessions && !(await this.evictIdle()))
      return refuse(res, 503, 'too many agent sessions');
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, {
          transport,
          open: 0,
          lastUsed: Date.now(),
          ...(caller.owner !== undefined ? { owner: caller.owner } : {}),
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await this.gateway.connect(transport, view, 'caller');
    await transport.handleRequest(req, res, body);
    // Anything but an initialize leaves the transport without a session: nothing will use it again.
    if (!transport.sessionId) await transport.close();
  }

  /** Answers `res` when the caller does not admit `body`; whether it did. */
  private async refused(res: ServerResponse, caller: AgentCaller, body: unknown): Promise<boolean> {
    const r = caller.admit && (await caller.admit(body));
    if (!r) return false;
    res.writeHead(r.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...r.headers });
    res.end(JSON.stringify(r.body));
    return true;
  }

  private serveModern(req: IncomingMessage, res: ServerResponse, body: unknown, view: AgentView): Promise<void> {
    const endpoint = this.endpoint(view);
    const listen = listenedResources(body);
    const watch = listen && endpoint.watches.add(listen.uris);
    if (watch) res.once('close', () => watch.dispose());
    // A stateless agent is there while a request of it is open (a listen stream) and a while after.
    const meta = (body as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
    const who = agentIdentity(meta?.[CLIENT_INFO_META_KEY], view);
    const presence = this.gateway.presence;
    const there = presence.hold(who);
    res.once('close', () => {
      presence.touch(who);
      there.dispose();
    });
    return endpoint.serve(req, res, body);
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
    this.logger.info('gateway: session cap reached; closing the least recently used idle session');
    await victim.transport.close();
    if (victim.transport.sessionId) this.sessions.delete(victim.transport.sessionId);
    return true;
  }

  async dispose(): Promise<void> {
    const endpoints = [...this.endpoints.values()];
    this.endpoints.clear();
    for (const e of endpoints) e.lists.dispose();
    await Promise.all(endpoints.map((e) => e.handler.close().catch(() => undefined)));
    const all = [...this.sessions.values()].map((s) => s.transport);
    this.sessions.clear();
    await Promise.all(all.map((t) => t.close().catch(() => undefined)));
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
