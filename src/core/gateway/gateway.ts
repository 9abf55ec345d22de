/**
 * The gateway: one MCP server (an SDK `Server` per agent session) that re-exposes what every
 * connected server of the host offers. It consumes the host only through `McpHost` (servers(),
 * onDidChangeServer, callTool/readResource/getPrompt), so it runs the same in the editor, in
 * `mcp-host serve` and in tests. Transports are the caller's: HTTP (http.ts) or stdio.
 */
import { Server } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { Emitter, type Event } from '../events.js';
import type { Disposable } from '../ports.js';
import { buildCatalog, fingerprint, type Catalog, type ExposureFilter } from './catalog.js';
import { DormantTools } from './dormant.js';
import { FEATURE_CAPABILITIES, installFeatureHandlers } from './features.js';
import { VERSION } from '../version.js';
import { agentTools, type AgentView } from './views.js';
import { ResultStore, type ResultPages } from './result-limit.js';
import { signInTools } from './auth-tool.js';
import { ParkedCalls } from './input-bridge.js';
import { watchResources } from './listen-resources.js';
import { AgentPresence } from './presence.js';
import { gatewayInstructions } from './instructions.js';
import { installHandlers } from './agent-handlers.js';
import type { AgentDeps, PathCounts } from './agent-calls.js';
import { FastCalls, FastPathTransport } from './fast-path.js';
import {
  errorText,
  FAST_PATH_ENV,
  KINDS,
  viewKey,
  type Agent,
  type AgentEra,
  type GatewayOptions,
  type Kind,
} from './agent.js';
import { randomUUID } from 'node:crypto';

export type { AgentEra, GatewayOptions, Kind } from './agent.js';

/** One receiver of list changes (`Gateway.watchLists`) and what its view was last listed. */
interface ListWatcher {
  view: AgentView;
  prints: Record<Kind, string>;
  deliver: (kinds: Kind[]) => void;
}

export class Gateway {
  private readonly agents = new Set<Agent>();
  private readonly changed = new Emitter<void>();
  private readonly subscriptions: Disposable[] = [];
  private catalog: Catalog;
  /** Catalogues of profiles, built when first asked for after each refresh. */
  private profileCatalogs = new Map<string, Catalog>();
  /** Whole results cut for agents, readable as `mcp-host-result://` resources. */
  private readonly results: ResultPages;
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
  /** What each agent's handlers answer from (agent-handlers.ts). */
  private readonly deps: AgentDeps;

  private readonly opts: GatewayOptions;
  /** The fast path's part of each 2025-11-25 agent with a connection (fast-path.ts). */
  private readonly fast = new WeakMap<Server, FastCalls>();

  constructor(options: GatewayOptions) {
    const opts = (this.opts = { ...options, fastPath: options.fastPath ?? process.env[FAST_PATH_ENV] !== '0' });
    this.results = opts.results ?? new ResultStore();
    this.deps = {
      paths: { fast: 0, full: 0 },
      opts: this.opts,
      parked: this.parked,
      dormant: this.dormant,
      catalogOf: (agent) => this.catalogOf(agent),
      listTools: (agent) => this.listTools(agent),
      shownTo: (view) => this.shownTo(view),
      firstListsReady: () => this.firstListsReady(),
      resultsOf: (agent) =>
        this.opts.privateResults && !agent.perRequest ? (agent.results ??= new ResultStore()) : this.results,
    };
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

  /** Agents' forwarded requests so far, by the path they took (fast-path.ts): `fast` frames, `full` SDK handlers. */
  paths(): PathCounts {
    return { ...this.deps.paths };
  }

  /**
   * `transport`, with the fast path in front of the agent server `serverOf()` gives (fast-path.ts);
   * `transport` itself when the fast path is off. Each agent's transport is wrapped once.
   */
  withFastPath(transport: Transport, serverOf: () => Server | undefined): Transport {
    if (!this.opts.fastPath) return transport;
    return new FastPathTransport(transport, () => {
      const server = serverOf();
      return server && this.fast.get(server);
    });
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
    const server = this.createServer('legacy', false, view, presence);
    // The fast path inside the agent's telemetry: whatever answers its frames is within its spans.
    await server.connect(this.withFastPath(this.observeAgent(transport), () => server));
  }

  /**
   * An agent's transport with its requests recorded (core/telemetry/), itself without telemetry.
   * Nearest the wire: whatever answers an agent's frame in front of its server is inside its spans.
   */
  observeAgent(transport: Transport): Transport {
    return this.opts.telemetry ? this.opts.telemetry.agent(transport, { perRequest: false }) : transport;
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
    // A 2026-07-28 exchange's transport is the SDK's own (createMcpHandler connects it): observed at connect.
    if (perRequest) this.opts.telemetry?.observeAgentServer(server);
    installHandlers(this.deps, agent);
    const fast = this.opts.fastPath && !agent.modern ? new FastCalls(this.deps, agent) : undefined;
    if (fast) this.fast.set(server, fast);
    if (agent.initialized) start();
    const extras = features ? installFeatureHandlers(server, () => this.catalogOf(agent), features) : undefined;
    server.oninitialized = () => {
      agent.initialized = true;
      const info = server.getClientVersion();
      this.opts.logger.info(`gateway: agent connected (${info?.name ?? 'unknown'} ${info?.version ?? ''})`.trim());
      start();
    };
    server.onclose = () => {
      fast?.dispose();
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
