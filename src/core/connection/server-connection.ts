/**
 * The connection of one configured server: its observable state, the live connection and the
 * scope of the current attempt (or of the wait before a reconnect). One launch (open, first lists),
 * attempts and backoff, close and error watching, start/stop/restart. What the server offers and
 * how calls use it is the entry's (server-entry.ts), which owns this object.
 */
import type { Client } from '@modelcontextprotocol/client';
import { inheritedEnv } from './inherited-env.js';
import { runs } from '../config/admit.js';
import type { ServerDefinition } from '../config/types.js';
import type { Logger } from '../ports.js';
import { negotiatesEra } from './era.js';
import type { TaskAnswerStore } from '../features/tasks.js';
import {
  NeedsAuthError,
  connectedState,
  fetchLists,
  openConnection,
  type LiveConnection,
  type ServerLists,
} from './connect.js';
import { HostError, errorMessage, isTerminalNetworkError } from './errors.js';
import type { InFlightCalls } from './in-flight.js';
import { AttemptScope } from './scope.js';
import type { ServerContext } from './server-context.js';
import { backoffDelay, connectTimeoutFor, isRemote } from './settings.js';
import { heldState, redactState, type ConnectionState } from './state.js';
import type { StdioProcessTransport } from './stdio-transport.js';
import { missingCacheHintsWarning, type CacheableMethod } from './cache-hints.js';

/** Consecutive terminal network errors after which a remote connection is closed. */
export const TERMINAL_ERROR_LIMIT = 3;

/** What the connection asks of the entry that owns it. */
export interface ConnectionOwner {
  readonly name: string;
  readonly log: Logger;
  readonly calls: InFlightCalls;
  /** A new connection's first lists, before it is shown connected. */
  listsArrived(lists: ServerLists, conn: LiveConnection): void;
  /** The connection that offered them is gone (stopped, closed). */
  listsLost(): void;
  /** An attempt failed: the last run's cached lists no longer stand in. */
  attemptFailed(): void;
  /** Installs the handlers for what the server asks of us (client-handlers.ts). */
  setupClient(client: Client, taskStore: TaskAnswerStore | undefined): void;
  /** State changed: fire the event. */
  changed(): void;
}

export class ServerConnection {
  state: ConnectionState;
  private conn: LiveConnection | undefined;
  /** The current attempt (connecting) or the wait before a reconnect; disposed on stop. */
  private scope: AttemptScope | undefined;
  private attempt: Promise<void> | undefined;
  /** The last stdio transport, kept after close so its stderr can still be shown. */
  private lastStdio: StdioProcessTransport | undefined;
  /** Killing what a dead connection left (its server's orphans): a stop or dispose waits for it. */
  private reaping: Promise<void> | undefined;
  /**
   * The stop under way (shutdown). An attempt begun meanwhile starts its process only once this
   * resolves, and a lazy connect joins the attempt instead of starting one of its own: a process
   * spawned while the old one was still being killed (0.5 s for a tree that ignores SIGTERM) was
   * connected by the time the restart's own attempt replaced it, and nobody closed it (issue 30).
   */
  private stopping: Promise<void> | undefined;
  private removed = false;
  /** 2026-07-28 methods whose results came without cache hints: each is logged once per server. */
  private readonly missingCacheHints = new Set<CacheableMethod>();

  constructor(
    public def: ServerDefinition,
    private readonly ctx: ServerContext,
    private readonly owner: ConnectionOwner,
  ) {
    this.state = runs(def) ? { kind: 'pending', attempt: 1, maxAttempts: 1, since: ctx.clock.now() } : heldState(def);
  }

  private get name(): string {
    return this.owner.name;
  }

  private get log(): Logger {
    return this.owner.log;
  }

  /** Connecting, or waiting to reconnect: not settled yet. */
  get busy(): boolean {
    return this.attempt !== undefined || (this.scope?.hasTimers ?? false) || this.state.kind === 'pending';
  }

  get live(): LiveConnection | undefined {
    return this.conn;
  }

  get isRemoved(): boolean {
    return this.removed;
  }

  /** The attempt under way, if any. */
  get attempting(): Promise<void> | undefined {
    return this.attempt;
  }

  /** Waiting for the backoff timer before the next reconnect attempt. */
  get waitingToReconnect(): boolean {
    return !this.attempt && (this.scope?.hasTimers ?? false);
  }

  recentStderr(): string {
    return (this.conn?.stdio ?? this.lastStdio)?.stderr.text ?? '';
  }

  /** Every state passes here, so every message it stores is redacted once (URLs, tokens, this entry's own secrets). */
  private setState(state: ConnectionState): void {
    this.state = redactState(state, this.def);
    this.owner.changed();
  }

  private pending(attempt: number, maxAttempts: number, reason?: string): ConnectionState {
    return { kind: 'pending', attempt, maxAttempts, since: this.ctx.clock.now(), ...(reason ? { reason } : {}) };
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /** A new definition (or admission) for the same name: restart, stop, or just show it. */
  update(def: ServerDefinition, restart: boolean): void {
    this.def = def;
    if (!restart) {
      if (runs(def)) this.owner.changed();
      else this.setState(heldState(def));
      return;
    }
    const stopping = this.shutdown();
    // Show the restart at once, not a stale "connected" while the old process is stopping.
    if (runs(def)) this.setState(this.pending(1, 1));
    // Runs before any call that waited for the same stop (connectNow), which then joins this attempt.
    void stopping.then(() => {
      if (this.superseded() || this.def !== def) return;
      if (!runs(def)) this.setState(heldState(def));
      else void this.connect(1);
    });
  }

  /** First start after creation. */
  begin(): void {
    if (runs(this.def)) void this.connect(1);
    else this.owner.changed();
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
    if (!this.superseded()) this.setState({ kind: 'disabled', reason: 'user', message: 'stopped' });
  }

  /** `reason` is shown while it reconnects (a restart the host decided on, not the user). */
  async restart(reason?: string): Promise<void> {
    await this.shutdown();
    if (this.superseded()) return this.attempt;
    if (!runs(this.def)) return this.setState(heldState(this.def));
    // A call that waited for the same stop joins this attempt (connectNow).
    await this.connect(1, reason);
  }

  /** Removed from the config (or the host is disposed): stop for good, fire nothing more. */
  async remove(): Promise<void> {
    this.removed = true;
    await this.shutdown();
  }

  /**
   * The attempt under way, or a new one (lazy connect). During a stop, whatever follows it: the
   * restart's attempt, or nothing once the server is stopped, disabled or waits for authentication.
   */
  async connectNow(): Promise<void> {
    if (!this.attempt && this.stopping) this.log.debug('waiting for the stop under way before connecting');
    while (!this.attempt && this.stopping) await this.stopping;
    if (this.attempt) return this.attempt;
    if (this.conn || this.removed || !runs(this.def)) return;
    if (this.state.kind === 'disabled' || this.state.kind === 'needs-auth') return;
    return this.connect(1);
  }

  /** The server ended the session of `conn`: a new session, unless another one replaced it already. */
  async renewSession(conn: LiveConnection): Promise<void> {
    if (this.conn !== conn) return;
    // Other calls still open on the old session end with this, not with "was stopped": the server
    // ended the session, and such a call may have run, so it is not repeated on the new one.
    await this.shutdown(
      `${this.name} ended the session while the call was open (a new session was started; the call may or may not have run)`,
    );
    await (this.superseded() ? this.attempt : this.connect(1));
  }

  /** The token stopped working mid-session (revoked, or refresh failed): same as at connect time. */
  tokenRejected(conn: LiveConnection, message: string): void {
    if (this.conn !== conn) return;
    // One step after the stop, before a call that waited for it (connectNow) looks at the state.
    void this.shutdown().then(() => {
      if (!this.superseded()) this.setState({ kind: 'needs-auth', message, at: this.ctx.clock.now() });
    });
  }

  /**
   * After a stop: removed, or something that began meanwhile (a newer stop, restart or edit, a
   * start, a lazy connect) decides what follows, not the operation that was waiting for the stop.
   */
  private superseded(): boolean {
    return this.removed || this.stopping !== undefined || this.attempt !== undefined || this.conn !== undefined;
  }

  /**
   * Drops the live connection and whatever the current scope runs; resolves when every process is
   * gone, those of an earlier stop still under way included.
   */
  private shutdown(why = `${this.name} was stopped`): Promise<void> {
    this.scope?.dispose();
    this.scope = undefined;
    const attempt = this.attempt;
    const conn = this.conn;
    this.conn = undefined;
    this.owner.listsLost();
    if (conn) conn.closedBecause = why;
    if (!conn && !attempt && !this.reaping && !this.stopping) return Promise.resolve();
    const stopping: Promise<void> = Promise.all([conn?.close(), attempt, this.reaping, this.stopping]).then(() => {
      if (this.stopping === stopping) this.stopping = undefined;
    });
    this.stopping = stopping;
    return stopping;
  }

  // ---- connecting --------------------------------------------------------------------------

  /** Starts an attempt in a new scope; resolves when it settled (never rejects: the outcome is the state). */
  private connect(attemptNo: number, reason?: string): Promise<void> {
    if (this.removed) return Promise.resolve();
    this.scope?.dispose();
    const scope = new AttemptScope(this.ctx.clock);
    this.scope = scope;
    const maxAttempts = attemptNo > 1 ? this.ctx.settings.maxReconnectAttempts : 1;
    this.setState(this.pending(attemptNo, maxAttempts, reason));
    const pool = this.ctx.poolFor(this.def);
    // The process of the stop under way and of an attempt this one replaces must be gone first.
    const before = this.stopping || this.attempt ? Promise.all([this.stopping, this.attempt]) : undefined;
    const promise = (async () => {
      if (before) {
        this.log.debug('waiting for the previous process to stop before starting a new one');
        await before;
        if (scope.disposed) return;
      }
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
          this.owner.setupClient(
            client,
            this.ctx.features.setup(this.name, client, this.log, (meta) => this.owner.calls.relatedTo(meta)),
          ),
        onMissingCacheHints: (method) => this.reportMissingCacheHints(method),
        wrapTransport: this.ctx.options.wrapTransport,
        transportFor: this.ctx.options.transportFor,
        sandbox: this.ctx.options.sandbox,
        ...(this.ctx.options.serverEnv ? { baseEnv: inheritedEnv(this.ctx.options.serverEnv) } : {}),
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
    let lists: ServerLists;
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
    this.owner.listsArrived(lists, conn);
    this.setState(this.withProtocolWarnings(connectedState(this.name, conn, this.ctx.clock.now())));
  }

  private reportMissingCacheHints(method: CacheableMethod): void {
    if (this.missingCacheHints.has(method)) return;
    this.missingCacheHints.add(method);
    this.log.warn(missingCacheHintsWarning(method));
    // Known once connected too (`mcp-host doctor`); a later list's warning joins the state it is in.
    if (this.state.kind === 'connected' && this.conn) this.setState(this.withProtocolWarnings(this.state));
  }

  private withProtocolWarnings(state: ConnectionState): ConnectionState {
    if (state.kind !== 'connected' || this.missingCacheHints.size === 0) return state;
    return { ...state, protocolWarnings: [...this.missingCacheHints].map(missingCacheHintsWarning) };
  }

  private onAttemptFailed(err: unknown, attemptNo: number): void {
    this.owner.attemptFailed();
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
      this.owner.listsLost();
      const why = conn.stdio
        ? `${this.name} ${conn.stdio.describeExit()}`
        : (conn.closedBecause ?? `${this.name} closed the connection`);
      conn.closedBecause ??= why;
      this.log.warn(`connection closed: ${why}`);
      // Kill what is left of the tree (grandchildren of a server that died); an earlier reap may still run.
      const reaping = Promise.all([this.reaping, conn.close()]).then(() => {
        if (this.reaping === reaping) this.reaping = undefined;
      });
      this.reaping = reaping;
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
}
