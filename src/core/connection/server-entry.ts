/**
 * One configured server as the host keeps it: what it offers (the lists, keyed by kind, and the
 * last run's cached lists until a live connection confirms them), the calls in flight and `use`
 * (one call, connecting first if needed, with the session-expired retry). Its connection
 * (server-connection.ts) owns the state, the attempts and the live SDK client.
 */
import type {
  CallOptions,
  HostPrompt,
  HostResource,
  HostResourceTemplate,
  HostTool,
  ServerSnapshot,
} from '../host-api.js';
import { wrapPrompts, wrapResourceTemplates, wrapResources, wrapTools } from '../capabilities/index.js';
import { runs } from '../config/admit.js';
import type { ServerDefinition } from '../config/types.js';
import { prefixed, type Clock, type Disposable, type Logger } from '../ports.js';
import { installListRefresh } from './client-handlers.js';
import type { HostClient } from './host-client.js';
import type { LaunchPlugin } from './launch-plugin.js';
import { fetchList, type ListKind, type LiveConnection, type ServerLists } from './connect.js';
import { HostError, errorMessage, isSessionExpired } from './errors.js';
import { InFlightCalls } from './in-flight.js';
import { callError } from './requests.js';
import type { ServerContext } from './server-context.js';
import { ServerConnection } from './server-connection.js';
import { connectTimeoutFor } from './settings.js';
import type { ConnectionState } from './state.js';

/** A server's lists as the host shows them (wrapped: qualified names, sanitised). */
interface HostLists {
  tools: HostTool[];
  resources: HostResource[];
  resourceTemplates: HostResourceTemplate[];
  prompts: HostPrompt[];
}

const NO_LISTS: HostLists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };

export class ServerEntry {
  private lists: HostLists = NO_LISTS;
  /** The lists shown are the last run's (list-cache.ts), not yet confirmed by a live connection. */
  private cached = false;
  /** What the server answered, unwrapped: what the list cache keeps. */
  private raw: ServerLists | undefined;
  readonly log: Logger;
  /** Callers of the requests in flight: whom a question the server asks may belong to (in-flight.ts). */
  readonly calls = new InFlightCalls();
  private readonly connection: ServerConnection;

  constructor(
    def: ServerDefinition,
    private readonly ctx: ServerContext,
  ) {
    this.log = ctx.options.serverLogger?.(def.name) ?? prefixed(ctx.options.logger, `[${def.name}]`);
    // Approval and policy decide `runs` before this: a held server is neither started nor shown cached.
    const last = runs(def) ? ctx.options.listCache?.get(def) : undefined;
    // Lazy start only with lists to show: a server with none starts now, so that it has some next time.
    const onFirstUse = last !== undefined && ctx.options.startServers === 'onFirstUse';
    this.connection = new ServerConnection(
      def,
      ctx,
      {
        get name() {
          return def.name;
        },
        log: this.log,
        calls: this.calls,
        listsArrived: (lists, conn) => this.listsArrived(lists, conn),
        listsLost: () => this.clearLists(),
        attemptFailed: () => {
          // The last run's lists were shown only while this server might still come up.
          if (this.cached) this.clearLists();
        },
        plugins: [() => this.listRefreshPlugin()],
        changed: () => this.ctx.changed(this),
      },
      onFirstUse,
    );
    if (last) {
      this.applyLists(last);
      this.cached = true;
    }
  }

  get def(): ServerDefinition {
    return this.connection.def;
  }

  get name(): string {
    return this.def.name;
  }

  get state(): ConnectionState {
    return this.connection.state;
  }

  get tools(): HostTool[] {
    return this.lists.tools;
  }

  get resources(): HostResource[] {
    return this.lists.resources;
  }

  get resourceTemplates(): HostResourceTemplate[] {
    return this.lists.resourceTemplates;
  }

  get prompts(): HostPrompt[] {
    return this.lists.prompts;
  }

  /** Connecting, or waiting to reconnect: not settled yet. */
  get busy(): boolean {
    return this.connection.busy;
  }

  get live(): LiveConnection | undefined {
    return this.connection.live;
  }

  recentStderr(): string {
    return this.connection.recentStderr();
  }

  snapshot(): ServerSnapshot {
    return {
      name: this.name,
      definition: this.def,
      state: this.state,
      tools: this.tools,
      resources: this.resources,
      resourceTemplates: this.resourceTemplates,
      prompts: this.prompts,
      ...(this.cached ? { cached: true } : {}),
    };
  }

  // ---- lifecycle (the connection's) ----------------------------------------------------------

  update(def: ServerDefinition, restart: boolean): void {
    this.connection.update(def, restart);
  }

  begin(): void {
    this.connection.begin();
  }

  start(): Promise<void> {
    return this.connection.start();
  }

  stop(): Promise<void> {
    return this.connection.stop();
  }

  restart(reason?: string): Promise<void> {
    return this.connection.restart(reason);
  }

  remove(): Promise<void> {
    return this.connection.remove();
  }

  // ---- lists -------------------------------------------------------------------------------

  /** Each kind wrapped as the host shows it; tools get names no other server uses. */
  private wrap<K extends ListKind>(kind: K, list: ServerLists[K]): HostLists[K] {
    const wrapped =
      kind === 'tools'
        ? wrapTools(this.name, list as ServerLists['tools'], this.ctx.takenNames(this))
        : kind === 'resources'
          ? wrapResources(this.name, list as ServerLists['resources'])
          : kind === 'resourceTemplates'
            ? wrapResourceTemplates(this.name, list as ServerLists['resourceTemplates'])
            : wrapPrompts(this.name, list as ServerLists['prompts']);
    return wrapped as HostLists[K];
  }

  private applyLists(lists: ServerLists): void {
    this.lists = {
      tools: this.wrap('tools', lists.tools),
      resources: this.wrap('resources', lists.resources),
      resourceTemplates: this.wrap('resourceTemplates', lists.resourceTemplates),
      prompts: this.wrap('prompts', lists.prompts),
    };
  }

  private clearLists(): void {
    this.cached = false;
    this.raw = undefined;
    this.lists = NO_LISTS;
  }

  private listsArrived(lists: ServerLists, conn: LiveConnection): void {
    this.cached = false;
    this.raw = lists;
    this.applyLists(lists);
    this.saveLists(lists);
    this.log.info(
      `connected in ${conn.connectMs} ms (${this.tools.length} tools, ${this.resources.length} resources, ${this.prompts.length} prompts)`,
    );
  }

  /** Kept for the next run; a store that cannot write costs only the head start. */
  private saveLists(lists: ServerLists): void {
    this.ctx.options.listCache
      ?.put(this.def, lists)
      .catch((err: unknown) => this.log.debug(`list cache not written: ${errorMessage(err)}`));
  }

  /** A launch plugin: a server's `list_changed` re-fetches that list while its client is the live one. */
  private listRefreshPlugin(): LaunchPlugin {
    return { setupClient: (client) => installListRefresh(client, (kind) => this.refresh(client, kind)) };
  }

  private async refresh(client: HostClient, kind: ListKind): Promise<void> {
    const conn = this.live;
    if (!conn || conn.client !== client) return;
    const list = await fetchList(client, kind, connectTimeoutFor(this.def.config, this.ctx.settings), this.log);
    if (this.live !== conn) return;
    this.lists = { ...this.lists, [kind]: this.wrap(kind, list) };
    if (this.raw) this.saveLists((this.raw = { ...this.raw, [kind]: list }));
    this.log.debug(`${kind} list changed`);
    this.ctx.changed(this);
  }

  // ---- using -------------------------------------------------------------------------------

  /** The live connection, connecting first if needed (lazy reconnect). */
  private async ensureConnected(): Promise<LiveConnection> {
    const c = this.connection;
    if (c.live) return c.live;
    if (c.isRemoved) throw new HostError('stopped', `${this.name} has been removed`);
    const s = this.state;
    if (s.kind === 'disabled' && s.reason !== 'on-first-use') throw this.disabledError(s);
    if (s.kind === 'needs-auth')
      throw new HostError('needs-auth', s.message, 'Run "MCP Host: Authenticate" for this server.');
    if (c.waitingToReconnect && s.kind === 'pending') {
      throw new HostError(
        'reconnecting',
        `${this.name} lost its connection and is reconnecting (attempt ${s.attempt} of ${s.maxAttempts})`,
        'Try again in a moment, or restart the server.',
      );
    }
    await c.connectNow();
    if (c.live) return c.live;
    const after = this.state;
    if (after.kind === 'failed') throw new HostError(after.error.code, after.error.message, after.error.hint);
    // Stopped or disabled while the call waited for a stop under way.
    if (after.kind === 'disabled') throw this.disabledError(after);
    if (after.kind === 'needs-auth')
      throw new HostError('needs-auth', after.message, 'Run "MCP Host: Authenticate" for this server.');
    throw new HostError('connect-failed', `${this.name} is not connected (${after.kind})`);
  }

  /**
   * `ensureConnected`, bounded by what is left of the call's timeout: a server that hangs while
   * connecting (or a stop, or a queue for a launch slot before it) does not hold the call past it.
   * The attempt goes on for the calls after this one, bounded by the connect timeout.
   */
  private async connectWithin(
    what: string,
    budget: CallBudget,
    signal: AbortSignal | undefined,
  ): Promise<LiveConnection> {
    const connecting = this.ensureConnected();
    let timer: Disposable | undefined;
    let onAbort: (() => void) | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = this.ctx.clock.setTimeout(() => {
        const s = this.state;
        const where = s.kind === 'pending' ? `still connecting, attempt ${s.attempt} of ${s.maxAttempts}` : s.kind;
        reject(
          new HostError(
            'request-timeout',
            `${what} on ${this.name} timed out after ${budget.totalMs} ms waiting for the server to connect (${where})`,
            'The server is slow to start or hangs while connecting: see its log. Raise its "toolTimeout" if it only starts slowly.',
          ),
        );
      }, budget.leftMs());
      if (signal) {
        onAbort = () =>
          reject(new HostError('cancelled', `${what} was cancelled while waiting for ${this.name} to connect`));
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    // The attempt's own outcome arrives later if the limit won; it is the state's then, not this call's.
    connecting.catch(() => {});
    try {
      return await Promise.race([connecting, limit]);
    } finally {
      timer?.dispose();
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private disabledError(s: Extract<ConnectionState, { kind: 'disabled' }>): HostError {
    return new HostError(
      'disabled',
      s.reason === 'user' ? `${this.name} is stopped` : `${this.name} is disabled${s.message ? `: ${s.message}` : ''}`,
      'Start or enable the server first.',
    );
  }

  /**
   * Runs `op` on the live connection, its caller on record meanwhile; session expiry gets a new
   * session and one retry. The call's timeout covers a wait for the connection: `op` is handed the
   * options with the time that is left (errors still name the whole timeout).
   */
  async use<T, O extends CallOptions = CallOptions>(
    what: string,
    opts: O | undefined,
    op: (conn: LiveConnection, opts: O | undefined) => Promise<T>,
  ): Promise<T> {
    if (opts?.signal?.aborted) throw new HostError('cancelled', `${what} was cancelled`);
    const call = this.calls.begin(opts?.origin);
    const linked = streamLinked(this.def.config.type);
    const run = (conn: LiveConnection, o: O | undefined) => call.run((c) => op(c, o), conn, linked);
    try {
      // Connected is the common case: no extra await (each one is a turn of the microtask queue per call).
      let conn = this.connection.live;
      let left = opts;
      if (!conn) {
        const budget = new CallBudget(this.ctx.clock, opts?.timeoutMs ?? this.ctx.settings.toolTimeoutMs);
        conn = await this.connectWithin(what, budget, opts?.signal);
        left = budget.rest(opts);
      }
      try {
        return await run(conn, left);
      } catch (err) {
        if (!isSessionExpired(err)) throw this.callError(err, conn, what, opts);
        this.log.info('the server ended our session (HTTP 404, -32001); starting a new session and retrying once');
        const budget = new CallBudget(this.ctx.clock, opts?.timeoutMs ?? this.ctx.settings.toolTimeoutMs);
        await this.connection.renewSession(conn);
        conn = await this.connectWithin(what, budget, opts?.signal);
        try {
          return await run(conn, budget.rest(opts));
        } catch (err2) {
          throw this.callError(err2, conn, what, opts);
        }
      }
    } finally {
      call.dispose();
    }
  }

  private callError(err: unknown, conn: LiveConnection, what: string, opts: CallOptions | undefined): Error {
    return callError(
      err,
      { server: this.name, conn, what, opts, toolTimeoutMs: this.ctx.settings.toolTimeoutMs },
      (message) => {
        this.log.warn(message);
        this.connection.tokenRejected(conn, message);
      },
    );
  }
}

/** Transports on which a server's question arrives in the context of the request it serves (in-flight.ts). */
function streamLinked(type: ServerDefinition['config']['type']): boolean {
  return type === 'http' || type === 'inprocess';
}

/** A call's timeout, counted from its start: what a wait for the connection leaves for the request. */
class CallBudget {
  private readonly started: number;

  constructor(
    private readonly clock: Clock,
    readonly totalMs: number,
  ) {
    this.started = clock.now();
  }

  leftMs(): number {
    return Math.max(1, this.totalMs - (this.clock.now() - this.started));
  }

  /** `opts` with the time left as its timeout (unchanged if nothing was spent). */
  rest<O extends CallOptions>(opts: O | undefined): O | undefined {
    const left = this.leftMs();
    if (left >= this.totalMs) return opts;
    return { ...(opts ?? ({} as O)), timeoutMs: left };
  }
}
