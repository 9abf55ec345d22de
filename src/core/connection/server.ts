/**
 * One configured server: its state, its cached lists, its live connection and the scope of the
 * current attempt (or of the wait before a reconnect). Start, stop, restart, lazy connect and
 * `use` (one call with the session-expired retry) live here; the manager only keeps the map,
 * the order, the pools, the definition diff, `whenSettled` and the events.
 */
import type { Client, Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
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
import { prefixed, type Logger } from '../ports.js';
import { installClientHandlers } from './client-handlers.js';
import { negotiatesEra } from './era.js';
import type { TaskAnswerStore } from '../features/tasks.js';
import {
  NeedsAuthError,
  connectedState,
  fetchList,
  fetchLists,
  openConnection,
  type LiveConnection,
} from './connect.js';
import { HostError, errorMessage, isSessionExpired, isTerminalNetworkError } from './errors.js';
import { InFlightCalls } from './in-flight.js';
import { callError } from './requests.js';
import { AttemptScope } from './scope.js';
import type { ServerContext } from './server-context.js';
import { backoffDelay, connectTimeoutFor, isRemote } from './settings.js';
import { heldState, redactState, type ConnectionState } from './state.js';
import type { StdioProcessTransport } from './stdio-transport.js';

/** Consecutive terminal network errors after which a remote connection is closed. */
export const TERMINAL_ERROR_LIMIT = 3;

export class Server {
  state: ConnectionState;
  tools: HostTool[] = [];
  resources: HostResource[] = [];
  resourceTemplates: HostResourceTemplate[] = [];
  prompts: HostPrompt[] = [];
  /** The lists shown are the last run's (list-cache.ts), not yet confirmed by a live connection. */
  private cached = false;
  /** What the server answered, unwrapped: what the list cache keeps. */
  private raw: Awaited<ReturnType<typeof fetchLists>> | undefined;
  private conn: LiveConnection | undefined;
  /** The current attempt (connecting) or the wait before a reconnect; disposed on stop. */
  private scope: AttemptScope | undefined;
  private attempt: Promise<void> | undefined;
  /** The last stdio transport, kept after close so its stderr can still be shown. */
  private lastStdio: StdioProcessTransport | undefined;
  private removed = false;
  readonly log: Logger;
  /** Callers of the requests in flight: whom a question the server asks may belong to (in-flight.ts). */
  readonly calls = new InFlightCalls();

  constructor(
    public def: ServerDefinition,
    private readonly ctx: ServerContext,
  ) {
    this.state = runs(def) ? { kind: 'pending', attempt: 1, maxAttempts: 1, since: ctx.clock.now() } : heldState(def);
    this.log = ctx.options.serverLogger?.(def.name) ?? prefixed(ctx.options.logger, `[${def.name}]`);
    const last = runs(def) ? ctx.options.listCache?.get(def) : undefined;
    if (last) {
      this.applyLists(last);
      this.cached = true;
    }
  }

  private applyLists(lists: Awaited<ReturnType<typeof fetchLists>>): void {
    this.tools = wrapTools(this.name, lists.tools, this.ctx.takenNames(this));
    this.resources = wrapResources(this.name, lists.resources);
    this.resourceTemplates = wrapResourceTemplates(this.name, lists.resourceTemplates);
    this.prompts = wrapPrompts(this.name, lists.prompts);
  }

  get name(): string {
    return this.def.name;
  }

  /** Connecting, or waiting to reconnect: not settled yet. */
  get busy(): boolean {
    return this.attempt !== undefined || (this.scope?.hasTimers ?? false) || this.state.kind === 'pending';
  }

  get live(): LiveConnection | undefined {
    return this.conn;
  }

  recentStderr(): string {
    return (this.conn?.stdio ?? this.lastStdio)?.stderr.text ?? '';
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

  /** Every state passes here, so every message it stores is redacted once (URLs, tokens, this entry's own secrets). */
  private setState(state: ConnectionState): void {
    this.state = redactState(state, this.def);
    this.ctx.changed(this);
  }

  private pending(attempt: number, maxAttempts: number, reason?: string): ConnectionState {
    return { kind: 'pending', attempt, maxAttempts, since: this.ctx.clock.now(), ...(reason ? { reason } : {}) };
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /** A new definition (or admission) for the same name: restart, stop, or just show it. */
  update(def: ServerDefinition, restart: boolean): void {
    this.def = def;
    if (!restart) {
      if (runs(def)) this.ctx.changed(this);
      else this.setState(heldState(def));
      return;
    }
    const stopping = this.shutdown();
    // Show the restart at once, not a stale "connected" while the old process is stopping.
    if (runs(def)) this.setState(this.pending(1, 1));
    void stopping.then(() => {
      if (this.removed) return;
      if (!runs(def)) this.setState(heldState(def));
      else void this.connect(1);
    });
  }

  /** First start after creation. */
  begin(): void {
    if (runs(this.def)) void this.connect(1);
    else this.ctx.changed(this);
  }

  async start(): Promise<void> {
    if (!runs(this.def)) return this.setState(heldState(this.def));
    if (this.conn) return;
    if (this.attempt) return this.attempt;
    this.scope?.dispose();
    await this.connect(1);
  }

  async stop(): Promise<void> {
    await this.shutdown();
    if (!this.removed) this.setState({ kind: 'disabled', reason: 'user', message: 'stopped' });
  }

  /** `reason` is shown while it reconnects (a restart the host decided on, not the user). */
  async restart(reason?: string): Promise<void> {
    await this.shutdown();
    if (!runs(this.def)) return this.setState(heldState(this.def));
    await this.connect(1, reason);
  }

  /** Removed from the config (or the host is disposed): stop for good, fire nothing more. */
  async remove(): Promise<void> {
    this.removed = true;
    await this.shutdown();
  }

  /** Drops the live connection and whatever the current scope runs; resolves when every process is gone. */
  private async shutdown(): Promise<void> {
    this.scope?.dispose();
    this.scope = undefined;
    const attempt = this.attempt;
    const conn = this.conn;
    this.conn = undefined;
    this.clearLists();
    if (conn) conn.closedBecause = `${this.name} was stopped`;
    await Promise.all([conn?.close(), attempt]);
  }

  private clearLists(): void {
    this.cached = false;
    this.raw = undefined;
    this.tools = [];
    this.resources = [];
    this.resourceTemplates = [];
    this.prompts = [];
  }

  // ---- connecting --------------------------------------------------------------------------

  /** Starts an attempt in a new scope; resolves when it settled (never rejects: the outcome is the state). */
  private connect(attemptNo: number, reason?: string): Promise<void> {
    this.scope?.dispose();
    const scope = new AttemptScope(this.ctx.clock);
    this.scope = scope;
    const maxAttempts = attemptNo > 1 ? this.ctx.settings.maxReconnectAttempts : 1;
    this.setState(this.pending(attemptNo, maxAttempts, reason));
    const pool = this.ctx.poolFor(this.def);
    const promise = (async () => {
      let release: () => void;
      try {
        release = pool ? await pool.acquire(scope.signal) : () => {};
      } catch {
        return; // Stopped while waiting for a slot.
      }
      try {
        if (!scope.disposed) await this.run(scope, attemptNo);
      } catch (err) {
        this.log.error(`unexpected error while connecting: ${errorMessage(err)}`);
        if (!scope.disposed)
          this.setState({
            kind: 'failed',
            error: { code: 'internal', message: errorMessage(err) },
            at: this.ctx.clock.now(),
          });
      } finally {
        release();
      }
    })().finally(() => {
      if (this.attempt === promise) this.attempt = undefined;
      this.ctx.attemptEnded();
    });
    this.attempt = promise;
    return promise;
  }

  private async run(scope: AttemptScope, attemptNo: number): Promise<void> {
    const def = this.def;
    const timeoutMs = connectTimeoutFor(def.config, this.ctx.settings);
    let conn: LiveConnection;
    const clientOptions = this.ctx.features.clientOptions();
    const eras = negotiatesEra(def.config) ? this.ctx.eras : undefined;
    const prior = eras?.prior(def.config);
    try {
      conn = await openConnection(def, {
        ...(eras ? { era: prior ? { prior } : {} } : {}),
        clientInfo: this.ctx.clientInfo,
        capabilities: this.ctx.capabilities,
        clientOptions,
        logger: this.log,
        authProvider:
          def.config.type === 'stdio' || def.config.type === 'inprocess'
            ? undefined
            : this.ctx.options.authProvider?.(def),
        timeoutMs,
        signal: scope.signal,
        clock: this.ctx.clock,
        setupClient: (client) =>
          this.setupClient(
            client,
            this.ctx.features.setup(this.name, client, this.log, (meta) => this.calls.relatedTo(meta)),
          ),
        wrapTransport: this.ctx.options.wrapTransport,
        transportFor: this.ctx.options.transportFor,
        sandbox: this.ctx.options.sandbox,
      });
    } catch (err) {
      // A remembered verdict that no longer holds (the server changed): the next connect probes.
      if (prior && !(err instanceof NeedsAuthError)) await eras?.forget(def.config);
      if (!scope.disposed) this.onAttemptFailed(err, attemptNo);
      return;
    }
    if (scope.disposed) return void (await conn.close());
    if (eras && !prior) {
      this.log.info(`protocol ${conn.protocolVersion} (${conn.era}, negotiated)`);
      await eras.remember(def.config, conn.client.getDiscoverResult());
    }
    this.lastStdio = conn.stdio;
    let lists: Awaited<ReturnType<typeof fetchLists>>;
    try {
      lists = await fetchLists(conn.client, timeoutMs, this.log);
      await conn.listening;
    } catch (err) {
      // Only needs-auth escapes fetchLists; every other list error yields an empty list.
      await conn.close();
      if (!scope.disposed) this.onAttemptFailed(err, attemptNo);
      return;
    }
    if (scope.disposed) return void (await conn.close());
    if (conn.closed) {
      // It died between initialize and the lists: a failed attempt, not a connected server.
      await conn.close();
      const why = conn.stdio
        ? `${this.name} ${conn.stdio.describeExit()}`
        : `${this.name} closed the connection right after connecting`;
      this.onAttemptFailed(new HostError(conn.stdio ? 'server-exited' : 'connection-closed', why), attemptNo);
      return;
    }
    this.watch(conn);
    this.conn = conn;
    this.ctx.features.attach(this.name, conn, this.log, (why) => this.unresponsive(conn, why));
    this.cached = false;
    this.raw = lists;
    this.applyLists(lists);
    this.saveLists(lists);
    this.log.info(
      `connected in ${conn.connectMs} ms (${this.tools.length} tools, ${this.resources.length} resources, ${this.prompts.length} prompts)`,
    );
    this.setState(connectedState(this.name, conn, this.ctx.clock.now()));
  }

  /** Kept for the next run; a store that cannot write costs only the head start. */
  private saveLists(lists: Awaited<ReturnType<typeof fetchLists>>): void {
    this.ctx.options.listCache
      ?.put(this.def, lists)
      .catch((err: unknown) => this.log.debug(`list cache not written: ${errorMessage(err)}`));
  }

  private onAttemptFailed(err: unknown, attemptNo: number): void {
    // The last run's lists were shown only while this server might still come up.
    if (this.cached) this.clearLists();
    if (err instanceof NeedsAuthError) {
      // No retry loop: the user authenticates, then the front end restarts the server.
      this.log.warn(err.message);
      this.setState({ kind: 'needs-auth', message: err.message, at: this.ctx.clock.now() });
      return;
    }
    const info =
      err instanceof HostError ? err.toInfo() : { code: 'connect-failed' as const, message: errorMessage(err) };
    this.log.error(`connect failed: ${info.message}`);
    if (attemptNo > 1 && isRemote(this.def.config)) return this.scheduleReconnect(attemptNo + 1, info.message);
    this.setState({ kind: 'failed', error: info, at: this.ctx.clock.now() });
  }

  private scheduleReconnect(attemptNo: number, lastError: string): void {
    const max = this.ctx.settings.maxReconnectAttempts;
    if (attemptNo > max) {
      this.setState({
        kind: 'failed',
        error: {
          code: 'reconnect-failed',
          message: `${this.name}: gave up reconnecting after ${max} attempts: ${lastError}`,
          hint: 'Restart the server once it is reachable again.',
        },
        at: this.ctx.clock.now(),
      });
      return;
    }
    const delay = backoffDelay(attemptNo - 1, this.ctx.settings);
    this.log.info(`reconnecting in ${delay} ms (attempt ${attemptNo} of ${max})`);
    // The wait has a scope of its own: a stop during it cancels the timer.
    this.scope?.dispose();
    const wait = new AttemptScope(this.ctx.clock);
    this.scope = wait;
    wait.setTimeout(() => void this.connect(attemptNo), delay);
    this.setState(this.pending(attemptNo, max));
  }

  /** Close and error handling for a live connection. */
  private watch(conn: LiveConnection): void {
    const client = conn.client;
    client.onerror = (err) => {
      if (this.conn !== conn) return;
      if (isRemote(this.def.config) && isTerminalNetworkError(err)) {
        conn.health.terminalErrors++;
        this.log.warn(`transport error ${conn.health.terminalErrors}/${TERMINAL_ERROR_LIMIT}: ${errorMessage(err)}`);
        if (conn.health.terminalErrors >= TERMINAL_ERROR_LIMIT) {
          conn.closedBecause = `${this.name}: lost the connection (${errorMessage(err)})`;
          // Closing rejects every pending call at once instead of letting each run into its timeout.
          void conn.close();
        }
        return;
      }
      this.log.debug(`protocol error: ${errorMessage(err)}`);
    };
    const markClosed = client.onclose;
    client.onclose = () => {
      markClosed?.();
      if (this.conn !== conn) return;
      this.conn = undefined;
      this.clearLists();
      const why = conn.stdio
        ? `${this.name} ${conn.stdio.describeExit()}`
        : (conn.closedBecause ?? `${this.name} closed the connection`);
      conn.closedBecause ??= why;
      this.log.warn(`connection closed: ${why}`);
      // Kill what is left of the tree (grandchildren of a server that died).
      void conn.close();
      if (isRemote(this.def.config) && !this.removed) return this.scheduleReconnect(2, why);
      const code = conn.stdio ? 'server-exited' : 'connection-closed';
      this.setState({
        kind: 'failed',
        error: { code, message: why, hint: 'The next use reconnects; see the server log for details.' },
        at: this.ctx.clock.now(),
      });
    };
  }

  /** Stopped answering pings: shown as unresponsive, then reconnected. */
  private unresponsive(conn: LiveConnection, why: string): void {
    if (this.conn !== conn) return;
    this.log.warn(`${this.name} is unresponsive: it ${why}; reconnecting`);
    this.setState({
      kind: 'failed',
      error: { code: 'unresponsive', message: `${this.name} is unresponsive: it ${why}`, hint: 'Reconnecting now.' },
      at: this.ctx.clock.now(),
    });
    // The failed state lasts only while the old process stops; the reconnect carries the reason,
    // so the tree shows why the server is connecting again rather than a bare "connecting".
    void this.restart(`unresponsive (it ${why})`);
  }

  private setupClient(client: Client, taskStore: TaskAnswerStore | undefined): void {
    installClientHandlers(client, {
      server: this.name,
      ...(taskStore ? { taskStore } : {}),
      roots: this.ctx.options.roots,
      elicitation: this.ctx.options.elicitation,
      log: this.log,
      relate: (meta) => this.calls.relatedTo(meta),
      refresh: async (kind) => {
        const conn = this.conn;
        if (!conn || conn.client !== client) return;
        const list = await fetchList(client, kind, connectTimeoutFor(this.def.config, this.ctx.settings), this.log);
        if (this.conn !== conn) return;
        if (kind === 'tools') this.tools = wrapTools(this.name, list as Tool[], this.ctx.takenNames(this));
        else if (kind === 'resources') this.resources = wrapResources(this.name, list as Resource[]);
        else if (kind === 'resourceTemplates')
          this.resourceTemplates = wrapResourceTemplates(this.name, list as ResourceTemplateType[]);
        else this.prompts = wrapPrompts(this.name, list as Prompt[]);
        if (this.raw) this.saveLists((this.raw = { ...this.raw, [kind]: list }));
        this.log.debug(`${kind} list changed`);
        this.ctx.changed(this);
      },
    });
  }

  // ---- using -------------------------------------------------------------------------------

  /** The live connection, connecting first if needed (lazy reconnect). */
  private async ensureConnected(): Promise<LiveConnection> {
    if (this.conn) return this.conn;
    if (this.removed) throw new HostError('stopped', `${this.name} has been removed`);
    const s = this.state;
    if (s.kind === 'disabled') {
      throw new HostError(
        'disabled',
        s.reason === 'user'
          ? `${this.name} is stopped`
          : `${this.name} is disabled${s.message ? `: ${s.message}` : ''}`,
        'Start or enable the server first.',
      );
    }
    if (s.kind === 'needs-auth')
      throw new HostError('needs-auth', s.message, 'Run "MCP Host: Authenticate" for this server.');
    if (!this.attempt && this.scope?.hasTimers && s.kind === 'pending') {
      throw new HostError(
        'reconnecting',
        `${this.name} lost its connection and is reconnecting (attempt ${s.attempt} of ${s.maxAttempts})`,
        'Try again in a moment, or restart the server.',
      );
    }
    await (this.attempt ?? this.connect(1));
    if (this.conn) return this.conn;
    const after = this.state;
    if (after.kind === 'failed') throw new HostError(after.error.code, after.error.message, after.error.hint);
    if (after.kind === 'needs-auth')
      throw new HostError('needs-auth', after.message, 'Run "MCP Host: Authenticate" for this server.');
    throw new HostError('connect-failed', `${this.name} is not connected (${after.kind})`);
  }

  /** Runs `op` on the live connection, its caller on record meanwhile; session expiry gets a new session and one retry. */
  async use<T>(what: string, opts: CallOptions | undefined, op: (conn: LiveConnection) => Promise<T>): Promise<T> {
    if (opts?.signal?.aborted) throw new HostError('cancelled', `${what} was cancelled`);
    const call = this.calls.begin(opts?.origin);
    try {
      // Connected is the common case: no extra await (each one is a turn of the microtask queue per call).
      let conn = this.conn ?? (await this.ensureConnected());
      try {
        return await call.run(op, conn);
      } catch (err) {
        if (!isSessionExpired(err)) throw this.callError(err, conn, what, opts);
        this.log.info('the server ended our session (HTTP 404, -32001); starting a new session and retrying once');
        if (this.conn === conn) {
          await this.shutdown();
          await this.connect(1);
        }
        conn = await this.ensureConnected();
        try {
          return await call.run(op, conn);
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
        // The token stopped working mid-session (revoked, or refresh failed): same as at connect time.
        this.log.warn(message);
        if (this.conn !== conn) return;
        void this.shutdown()
          .then(undefined, () => undefined)
          .then(() => this.setState({ kind: 'needs-auth', message, at: this.ctx.clock.now() }));
      },
    );
  }
}
