/**
 * The gateway: one MCP server (an SDK `Server` per agent session) that re-exposes what every
 * connected server of the host offers. It consumes the host only through `McpHost` (servers(),
 * onDidChangeServer, callTool/readResource/getPrompt), so it runs the same in the editor, in
 * `mcp-host serve` and in tests. Transports are the caller's: HTTP (http.ts) or stdio.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Server,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import type {
  Transport,
  CallToolResult,
  ClientCapabilities,
  ReadResourceResult,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { CallOptions } from '../host-api.js';
import type { McpHost } from '../host.js';
import { Emitter, type Event } from '../events.js';
import type { Disposable, Logger } from '../ports.js';
import type { GatewayBridge } from './bridge.js';
import {
  buildCatalog,
  fingerprint,
  resolveResourceUri,
  wrapUri,
  type Catalog,
  type ExposureFilter,
} from './catalog.js';
import { DormantTools } from './dormant.js';
import { toWireContents, toWireResourceContents } from '../capabilities/wire.js';
import { FEATURE_CAPABILITIES, installFeatureHandlers, type GatewayFeatures } from './features.js';
import { hintOf } from '../errors.js';
import { VERSION } from '../version.js';
import { agentTools, type AgentView, type GatewayViews } from './views.js';
import { limitToolResult, ResultStore, type ResultLimitOptions } from './result-limit.js';
import { forwardedResult, forwardingToolsCall } from './forward.js';
import { callSignIn, signInTools, type AgentSignIn } from './auth-tool.js';
import { searchModeCall, SEARCH_TOOL_NAMES } from './tool-search.js';
import { ParkedCalls, type AskAgent } from './input-bridge.js';
import { watchResources } from './listen-resources.js';
import { AgentPresence, agentIdentity } from './presence.js';
import { connectingServers, gatewayInstructions, type GatewayFrontEnd } from './instructions.js';
import { randomUUID } from 'node:crypto';

export interface GatewayOptions extends ExposureFilter {
  host: McpHost;
  logger: Logger;
  /** The host's elicitation/sampling port, so questions go back to the asking agent. */
  bridge?: GatewayBridge;
  /** Resource subscriptions and completions (features.ts); without it the gateway offers neither. */
  features?: GatewayFeatures;
  serverInfo?: { name: string; version: string };
  /** Tool search mode and profiles, read live (views.ts); without them every agent sees every tool. */
  views?: GatewayViews;
  /** Tool results past this reach agents cut (result-limit.ts); read live. Default 25,000 tokens. */
  resultLimit?: () => ResultLimitOptions;
  /** Signs in to a server for an agent (auth-tool.ts); without it, such servers are not shown. */
  signIn?: AgentSignIn;
  /** How long a stateless (2026-07-28 HTTP) agent counts as there after its last request (presence.ts). Default 60 s. */
  agentIdleMs?: number;
  /** Who runs the gateway, for the wording of its instructions. Default `editor`. */
  frontEnd?: GatewayFrontEnd;
  /**
   * A list asked for before every server has settled waits for them this long at most, counted
   * from the gateway's start (`serve`: its servers start with it). Agents that ignore
   * `list_changed` still see the servers that connect quickly; one server that never answers
   * delays a list by this much, never by its connect timeout. Default 0: lists never wait.
   */
  firstListWaitMs?: number;
}

interface Agent {
  server: Server;
  initialized: boolean;
  /** Servers this agent has called, read or prompted: the only ones whose log lines it is sent. */
  used: Set<string>;
  view: AgentView;
  /** A 2026-07-28 agent: stateless, questions mid-call go back as `input_required`. */
  modern: boolean;
  /** Lives for one HTTP exchange: list changes reach its endpoint's listen streams instead (`watchLists`, http.ts). */
  perRequest: boolean;
  /** Whom its parked calls' `requestState` belongs to, for an agent that outlives one exchange (a connection). */
  connectionId?: string;
}

/** The era an agent's server speaks: `legacy` (2025-11-25, sessions) or `modern` (2026-07-28). */
export type AgentEra = 'legacy' | 'modern';

export type Kind = 'tools' | 'prompts' | 'resources';

const KINDS: readonly Kind[] = ['tools', 'prompts', 'resources'];

/** One receiver of list changes (`Gateway.watchLists`) and what its view was last listed. */
interface ListWatcher {
  view: AgentView;
  prints: Record<Kind, string>;
  deliver: (kinds: Kind[]) => void;
}

function viewKey(view: AgentView): string {
  return JSON.stringify([view.profile ?? null, view.tools ?? null]);
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const hint = hintOf(err);
    return hint ? `${err.message} (${hint})` : err.message;
  }
  return String(err);
}

export class Gateway {
  private readonly agents = new Set<Agent>();
  private readonly changed = new Emitter<void>();
  private readonly subscriptions: Disposable[] = [];
  private catalog: Catalog;
  /** Catalogues of profiles, built when first asked for after each refresh. */
  private profileCatalogs = new Map<string, Catalog>();
  /** Whole results cut for agents, readable as `mcp-host-result://` resources. */
  private readonly results = new ResultStore();
  /** Tools of servers that lost their connection: still callable, so the call reconnects them (dormant.ts). */
  private readonly dormant = new DormantTools();
  private disposed = false;
  private readonly parked = new ParkedCalls();
  /** Agents that are there: the count of `agentCount()` and the editor's status bar (presence.ts). */
  readonly presence: AgentPresence;
  /** Everyone told of list changes: agents with a connection, and the stateless endpoint's views. */
  private readonly listWatchers = new Set<ListWatcher>();
  /** Servers that needed sign-in and have not connected or failed since (their stand-in stays). */
  private readonly signingIn = new Set<string>();

  /** Fires when an agent connects or leaves. */
  readonly onDidChangeAgents: Event<void> = this.changed.event;
  /** Until when a list waits for servers still connecting (`firstListWaitMs`). */
  private readonly listWaitUntil: number;

  constructor(private readonly opts: GatewayOptions) {
    this.listWaitUntil = Date.now() + (opts.firstListWaitMs ?? 0);
    this.presence = new AgentPresence(opts.agentIdleMs);
    this.subscriptions.push(
      this.presence.onDidChange(() => this.changed.fire()),
      this.presence,
    );
    this.catalog = this.build();
    this.subscriptions.push(opts.host.onDidChangeServer(() => this.refresh()));
    if (opts.bridge) {
      this.subscriptions.push(
        opts.bridge.onServerLog(({ server, params }) => {
          if (!this.isExposed(server)) return;
          const logger = typeof params.logger === 'string' ? `${server}/${params.logger}` : server;
          // A log line may describe another agent's call (its arguments, its results): it goes only
          // to agents that used this server themselves.
          for (const a of this.agents) {
            if (a.initialized && a.used.has(server))
              a.server.sendLoggingMessage({ ...params, logger }, a.server.transport?.sessionId).catch(() => undefined);
          }
        }),
      );
    }
  }

  private isExposed(server: string): boolean {
    return this.opts.isServerExposed?.(server) ?? true;
  }

  private build(filter: ExposureFilter = this.opts): Catalog {
    const snapshots = this.opts.host.servers();
    const catalog = buildCatalog(snapshots, filter);
    if (this.opts.signIn) {
      const names = new Set(snapshots.map((s) => s.name));
      for (const n of this.signingIn) if (!names.has(n)) this.signingIn.delete(n);
      for (const s of snapshots) {
        if (s.state.kind === 'needs-auth') this.signingIn.add(s.name);
        else if (s.state.kind !== 'pending') this.signingIn.delete(s.name);
      }
      catalog.tools.push(...signInTools(snapshots, filter, new Set(catalog.tools.map((t) => t.name)), this.signingIn));
    }
    return catalog;
  }

  /** What `agent` is offered: the gateway's catalogue, or its profile's. */
  private catalogOf(agent: Agent): Catalog {
    return this.catalogFor(agent.view);
  }

  private catalogFor(view: AgentView): Catalog {
    const name = view.profile;
    if (name === undefined || !this.opts.views) return this.catalog;
    let c = this.profileCatalogs.get(name);
    if (!c) {
      const filter = this.opts.views.filterFor(name, this.opts);
      // A profile removed from the settings while its agent is connected offers nothing more.
      c = filter ? this.build(filter) : { tools: [], prompts: [], resources: [], templates: [], servers: [] };
      this.profileCatalogs.set(name, c);
    }
    return c;
  }

  /** Profile names agents may ask for (`/mcp/<profile>`, `serve --profile`). */
  hasProfile(name: string): boolean {
    return this.opts.views?.hasProfile(name) ?? false;
  }

  private listTools(agent: Agent): ReturnType<typeof agentTools> {
    return agentTools(this.catalogOf(agent), agent.view, this.opts.views);
  }

  /** Whether `view` is offered `server` (connected or not): its profile's servers, or every exposed one. */
  private shownTo(view: AgentView): (server: string) => boolean {
    const filter =
      view.profile !== undefined && this.opts.views ? this.opts.views.filterFor(view.profile, this.opts) : this.opts;
    return (server) => (filter ? (filter.isServerExposed?.(server) ?? true) : false);
  }

  /**
   * Resolves when every server has settled, or at `listWaitUntil`, whichever is first; at once
   * after that. Only lists wait: `initialize` and `server/discover` are answered at once.
   */
  private async firstListsReady(): Promise<void> {
    const left = this.listWaitUntil - Date.now();
    if (left <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.opts.host.whenSettled(),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, left))),
    ]).finally(() => clearTimeout(timer));
  }

  /** What `view` is listed, as one fingerprint per list: what a `list_changed` is decided on. */
  private fingerprints(view: AgentView): Record<Kind, string> {
    const c = this.catalogFor(view);
    return {
      tools: fingerprint(agentTools(c, view, this.opts.views).tools),
      prompts: fingerprint(c.prompts.map((p) => [p.name, p.prompt.description, p.prompt.arguments])),
      resources: fingerprint([
        c.resources.map((r) => [r.uri, r.resource.name, r.resource.description]),
        c.templates.map((t) => t.uriTemplate),
      ]),
    };
  }

  /** Recomputes what is exposed and tells every agent which lists changed (also after a settings change). */
  refresh(): void {
    if (this.disposed) return;
    const next = this.build();
    this.dormant.update(this.catalog.tools, next.tools, this.opts.host.servers());
    this.catalog = next;
    this.profileCatalogs.clear();
    // Agents of one view are listed the same: each view's lists are fingerprinted once per refresh.
    const byView = new Map<string, Record<Kind, string>>();
    for (const w of [...this.listWatchers]) {
      if (!this.listWatchers.has(w)) continue;
      const key = viewKey(w.view);
      let prints = byView.get(key);
      if (!prints) byView.set(key, (prints = this.fingerprints(w.view)));
      const changed = KINDS.filter((k) => prints[k] !== w.prints[k]);
      w.prints = prints;
      if (changed.length > 0) w.deliver(changed);
    }
  }

  /**
   * The one way list changes reach agents, of either era: after each refresh, `deliver` hears which
   * of the lists `view` is shown changed, if any. An agent with a connection (a session, `serve`)
   * watches its own view and sends `list_changed` on it; the stateless HTTP endpoint watches each
   * view its agents use and publishes on their `subscriptions/listen` streams (http.ts).
   */
  watchLists(view: AgentView, deliver: (kinds: Kind[]) => void): Disposable {
    const w: ListWatcher = { view, prints: this.fingerprints(view), deliver };
    this.listWatchers.add(w);
    return { dispose: () => this.listWatchers.delete(w) };
  }

  /**
   * Upstream subscriptions for a modern agent's `subscriptions/listen` (listen-resources.ts), URIs
   * as `view` was shown them; none without features.
   */
  watchResources(uris: string[], onUpdated: (uri: string) => void, view: AgentView = {}): Disposable | undefined {
    const features = this.opts.features;
    return features ? watchResources(this.catalogFor(view), features, uris, onUpdated, this.opts.logger) : undefined;
  }

  /** Agents that are there, of every era and transport (presence.ts). */
  agentCount(): number {
    return this.presence.count();
  }

  /** What the gateway exposes right now. */
  current(): Catalog {
    return this.catalog;
  }

  /**
   * Serves one legacy agent over `transport` until it closes; `view` picks its profile and tool
   * listing. `presence: 'caller'`: the caller says when the agent is there (http.ts: while its
   * session holds a connection open); otherwise it is from `initialize` until the transport closes.
   */
  async connect(
    transport: Transport,
    view: AgentView = {},
    presence: 'connection' | 'caller' = 'connection',
  ): Promise<void> {
    await this.createServer('legacy', false, view, presence).connect(transport);
  }

  /**
   * A fresh agent server: the factory `createMcpHandler` and `serveStdio` call for each exchange
   * (HTTP, `perRequest`) or connection (stdio). A modern one counts as an agent while it lives.
   */
  createServer(
    era: AgentEra,
    perRequest = false,
    view: AgentView = {},
    presence: 'connection' | 'caller' = 'connection',
  ): Server {
    if (this.disposed) throw new Error('the gateway has been stopped');
    if (view.profile !== undefined && !this.hasProfile(view.profile))
      throw new Error(`no gateway profile "${view.profile}"`);
    const features = this.opts.features;
    const server = new Server(this.opts.serverInfo ?? { name: 'mcp-host-gateway', version: VERSION }, {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, ...(features ? { subscribe: true } : {}) },
        logging: {},
        ...(features ? FEATURE_CAPABILITIES : {}),
      },
      // Made when the agent's first message arrives: the servers connecting then are named, and
      // the instructions of those connected are passed on (instructions.ts).
      instructions: gatewayInstructions(this.opts.frontEnd ?? 'editor', this.opts.host.servers(), this.shownTo(view)),
    });
    const agent: Agent = {
      server,
      initialized: era === 'modern',
      used: new Set(),
      view,
      modern: era === 'modern',
      perRequest,
      ...(perRequest ? {} : { connectionId: randomUUID() }),
    };
    // A stateless agent is counted by http.ts, which sees its requests; the rest from here.
    let held: Disposable | undefined;
    // What it is listed starts from when it is served: `initialized`, or now for a modern agent.
    let lists: Disposable | undefined;
    const start = (): void => {
      if (perRequest) return;
      if (presence === 'connection' && !held) held = this.presence.hold(`connection:${agent.connectionId}`);
      lists ??= this.watchLists(view, (kinds) => this.sendListChanged(server, kinds));
    };
    this.install(agent);
    if (agent.initialized) start();
    const extras = features ? installFeatureHandlers(server, () => this.catalogOf(agent), features) : undefined;
    server.oninitialized = () => {
      agent.initialized = true;
      const info = server.getClientVersion();
      this.opts.logger.info(`gateway: agent connected (${info?.name ?? 'unknown'} ${info?.version ?? ''})`.trim());
      start();
    };
    server.onclose = () => {
      extras?.dispose();
      lists?.dispose();
      if (!this.agents.delete(agent)) return;
      if (agent.initialized && !perRequest) this.opts.logger.info('gateway: agent disconnected');
      held?.dispose();
    };
    this.agents.add(agent);
    return server;
  }

  private sendListChanged(server: Server, kinds: Kind[]): void {
    const send = (p: Promise<void>): void =>
      void p.catch((err: unknown) => this.opts.logger.debug(`gateway: list_changed not delivered: ${errorText(err)}`));
    if (kinds.includes('tools')) send(server.sendToolListChanged());
    if (kinds.includes('prompts')) send(server.sendPromptListChanged());
    if (kinds.includes('resources')) send(server.sendResourceListChanged());
  }

  private callOptions(
    agent: Agent,
    target: string,
    ctx: ServerContext,
    parked?: { ask: AskAgent; signal: AbortSignal },
  ): CallOptions {
    agent.used.add(target);
    const token = ctx.mcpReq._meta?.progressToken;
    // The origin lets the bridge send a server's question back to this agent request.
    const opts: CallOptions = {
      signal: parked?.signal ?? ctx.mcpReq.signal,
      ...(this.opts.bridge
        ? {
            origin: this.opts.bridge.origin(
              agent.server,
              ctx.mcpReq.id,
              parked?.ask,
              this.capabilities(agent, ctx, parked !== undefined),
            ),
          }
        : {}),
    };
    if (token !== undefined) {
      opts.onProgress = (p) => {
        ctx.mcpReq
          .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
          .catch(() => undefined);
      };
    }
    return opts;
  }

  private mapUri(server: string, catalog: Catalog = this.catalog): (uri: string) => string {
    return (uri) => catalog.resources.find((r) => r.resource.server === server && r.resource.uri === uri)?.uri ?? uri;
  }

  /** One gateway tool call for `agent`, with the result cut to the limit. */
  private async callExposed(
    agent: Agent,
    name: string,
    args: Record<string, unknown>,
    ctx: ServerContext,
    parked?: { ask: AskAgent; signal: AbortSignal },
  ): Promise<CallToolResult> {
    // A server that lost its connection reconnects on this call, as the host's next use does
    // (dormant.ts); a profile's agent only gets the tools its profile lists.
    const entry =
      this.catalogOf(agent).tools.find((t) => t.name === name) ??
      (agent.view.profile === undefined ? this.dormant.find(name, this.opts) : undefined);
    if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool "${name}"`);
    if (entry.signIn && this.opts.signIn)
      return callSignIn(this.opts.host, this.opts.signIn, entry.tool.server, parked?.signal ?? ctx.mcpReq.signal);
    const opts = this.callOptions(agent, entry.tool.server, ctx, parked);
    try {
      // The server's wire result, forwarded (forward.ts): not turned into the host's shape and back.
      const raw = await this.opts.host.forwardToolCall(entry.tool.server, entry.tool.name, args, opts);
      const r = forwardedResult(raw, this.mapUri(entry.tool.server, this.catalogOf(agent)));
      if (typeof r === 'string')
        return { content: [{ type: 'text', text: `${entry.tool.server}: ${r}` }], isError: true };
      return limitToolResult(
        r,
        this.opts.resultLimit?.() ?? {},
        this.results,
        entry.tool.outputSchema !== undefined,
      ) as CallToolResult;
    } catch (err) {
      // A host failure (server down, timeout, bad arguments) is a tool error the model can read.
      return { content: [{ type: 'text', text: errorText(err) }], isError: true };
    }
  }

  /** A modern agent declares its capabilities on each request, not once per connection. */
  private capabilities(agent: Agent, ctx: ServerContext, parked: boolean): ClientCapabilities | undefined {
    if (!agent.modern) return agent.server.getClientCapabilities();
    // Only a parked tool call can hand a question back (input-bridge.ts); elsewhere the editor asks.
    if (!parked) return {};
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  }

  private install(agent: Agent): void {
    const s = agent.server;
    s.setRequestHandler('tools/list', async () => {
      await this.firstListsReady();
      return { tools: this.listTools(agent).tools as { name: string; inputSchema: { type: 'object' } }[] };
    });
    const toolsCall = async (
      name: string,
      args: Record<string, unknown>,
      ctx: ServerContext,
    ): Promise<CallToolResult> => {
      const listing = SEARCH_TOOL_NAMES.includes(name) ? this.listTools(agent) : undefined;
      if (listing?.search) {
        const connecting = connectingServers(this.opts.host.servers(), this.shownTo(agent.view));
        const step = searchModeCall(name, args, listing.search, listing.definition, connecting);
        if ('result' in step) return step.result;
        ({ name, arguments: args } = step.call);
      }
      if (!agent.modern) return this.callExposed(agent, name, args, ctx);
      // The upstream call may outlive this exchange (input-bridge.ts).
      const requestState = ctx.mcpReq.requestState<string>();
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      return (await this.parked.run(
        {
          signal: ctx.mcpReq.signal,
          // Only the agent a requestState was given to may present it (input-bridge.ts).
          owner: agent.connectionId ?? agentIdentity(envelope?.[CLIENT_INFO_META_KEY], agent.view),
          ...(requestState !== undefined ? { requestState } : {}),
          ...(ctx.mcpReq.inputResponses ? { inputResponses: ctx.mcpReq.inputResponses } : {}),
        },
        (ask, signal) => this.callExposed(agent, name, args, ctx, { ask, signal }),
      )) as CallToolResult;
    };
    // A legacy agent's call skips the SDK server's parse of request and result (forward.ts).
    if (agent.modern)
      s.setRequestHandler('tools/call', (req, ctx) => toolsCall(req.params.name, req.params.arguments ?? {}, ctx));
    else s.fallbackRequestHandler = forwardingToolsCall((c, ctx) => toolsCall(c.name, c.arguments, ctx));
    // Lists asked for while servers still connect wait a moment for them (firstListWaitMs).
    const listed =
      <T>(make: () => T) =>
      async (): Promise<T> => {
        await this.firstListsReady();
        return make();
      };
    s.setRequestHandler(
      'prompts/list',
      listed(() => ({
        prompts: this.catalogOf(agent).prompts.map(({ name, prompt }) => ({
          name,
          ...(prompt.title !== undefined ? { title: prompt.title } : {}),
          ...(prompt.description !== undefined ? { description: prompt.description } : {}),
          arguments: prompt.arguments,
        })),
      })),
    );
    s.setRequestHandler('prompts/get', async (req, ctx) => {
      const entry = this.catalogOf(agent).prompts.find((p) => p.name === req.params.name);
      if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown prompt "${req.params.name}"`);
      const server = entry.prompt.server;
      const opts = this.callOptions(agent, server, ctx);
      try {
        const r = await this.opts.host.getPrompt(server, entry.prompt.name, req.params.arguments ?? {}, opts);
        const messages = [];
        for (const m of r.messages)
          messages.push({
            role: m.role,
            content: (await toWireContents([m.content], { mapUri: this.mapUri(server, this.catalogOf(agent)) }))[0]!,
          });
        return { ...(r.description !== undefined ? { description: r.description } : {}), messages };
      } catch (err) {
        throw err instanceof ProtocolError ? err : new ProtocolError(ProtocolErrorCode.InternalError, errorText(err));
      }
    });
    s.setRequestHandler(
      'resources/list',
      listed(() => ({
        resources: this.catalogOf(agent).resources.map(({ uri, resource: r }) => ({
          uri,
          name: r.name,
          ...(r.title !== undefined ? { title: r.title } : {}),
          ...(r.description !== undefined ? { description: r.description } : {}),
          ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
        })),
      })),
    );
    s.setRequestHandler(
      'resources/templates/list',
      listed(() => ({
        resourceTemplates: this.catalogOf(agent).templates.map(({ uriTemplate, template: t }) => ({
          uriTemplate,
          name: t.name,
          ...(t.title !== undefined ? { title: t.title } : {}),
          ...(t.description !== undefined ? { description: t.description } : {}),
          ...(t.mimeType !== undefined ? { mimeType: t.mimeType } : {}),
        })),
      })),
    );
    s.setRequestHandler('resources/read', async (req, ctx) => {
      let kept;
      try {
        kept = this.results.read(req.params.uri);
      } catch (err) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, errorText(err));
      }
      // Exactly one of text and blob is set on each item (result-limit.ts).
      if (kept) return { contents: kept as ReadResourceResult['contents'] };
      const target = resolveResourceUri(this.catalogOf(agent), req.params.uri);
      if (!target)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `no exposed server offers the resource ${req.params.uri}`,
        );
      const opts = this.callOptions(agent, target.server, ctx);
      try {
        const r = await this.opts.host.readResource(target.server, target.uri, opts);
        const wrapped = req.params.uri !== target.uri;
        // A wrapped URI comes back wrapped, so the agent can match the answer to its question.
        const map = (u: string): string =>
          wrapped ? wrapUri(target.server, u) : this.mapUri(target.server, this.catalogOf(agent))(u);
        return { contents: await toWireResourceContents(r, { mapUri: map }) };
      } catch (err) {
        throw err instanceof ProtocolError ? err : new ProtocolError(ProtocolErrorCode.InternalError, errorText(err));
      }
    });
  }

  /** Closes every agent session. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.parked.dispose();
    this.listWatchers.clear();
    const agents = [...this.agents];
    await Promise.all(agents.map((a) => a.server.close().catch(() => undefined)));
    this.agents.clear();
    this.changed.fire();
    this.changed.dispose();
  }
}
