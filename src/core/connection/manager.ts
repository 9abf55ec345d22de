/**
 * The connection manager behind `McpHost`: one entry per configured server, a launch counter so a
 * stale attempt's result is dropped, two connect pools (local, remote) side by side, cached lists
 * refreshed on `list_changed`, lazy reconnect for closed connections and backoff for remote ones.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, ClientCapabilities, Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallOptions,
  HostOptions,
  HostPrompt,
  HostResource,
  HostResourceTemplate,
  HostTool,
  McpHost,
  PromptGetResult,
  ResourceReadResult,
  ServerChangeEvent,
  ServerSnapshot,
  ToolCallResult,
} from '../api.js';
import {
  sanitizeInstructions,
  toPromptGetResult,
  toResourceReadResult,
  toToolCallResult,
  validateToolArgs,
  wrapPrompts,
  wrapResourceTemplates,
  wrapResources,
  wrapTools,
} from '../capabilities/index.js';
import type { ServerDefinition } from '../config/types.js';
import { Emitter } from '../events.js';
import type { Clock, Disposable, Logger } from '../ports.js';
import { systemClock } from '../ports.js';
import { clientCapabilities, installClientHandlers } from './clientHandlers.js';
import { NeedsAuthError, fetchList, fetchLists, openConnection, type LiveConnection } from './connect.js';
import { HostError, errorMessage, isConnectionClosed, isRequestTimeout, isSessionExpired, isTerminalNetworkError, isUnauthorized } from './errors.js';
import { Pool } from './pool.js';
import { backoffDelay, connectTimeoutFor, isRemote, readSettings, type ConnectionSettings } from './settings.js';
import type { ConnectionState } from './state.js';
import type { StdioProcessTransport } from './stdioTransport.js';

const TERMINAL_ERROR_LIMIT = 3;

/** Any JSON object: a free-form request's result is shown to the user as it came. */
const anyResult = z.looseObject({});

interface Attempt {
  launch: number;
  promise: Promise<void>;
  abort: AbortController;
}

interface Entry {
  name: string;
  def: ServerDefinition;
  state: ConnectionState;
  tools: HostTool[];
  resources: HostResource[];
  resourceTemplates: HostResourceTemplate[];
  prompts: HostPrompt[];
  conn?: LiveConnection;
  /** Incremented by every start/stop; results of an attempt with an older number are dropped. */
  launch: number;
  attempt?: Attempt;
  reconnectTimer?: Disposable;
  /** The last stdio transport, kept after close so its stderr can still be shown. */
  lastStdio?: StdioProcessTransport;
  removed: boolean;
  log: Logger;
}

/** `McpHost` plus diagnostics the editor layer and tests use. */
export interface ConnectionManager extends McpHost {
  /** Recent stderr of a stdio server (bounded), also after it exited. */
  recentStderr(name: string): string;
  /** Pid of a stdio server's process while it runs. */
  pid(name: string): number | undefined;
  /** Sends any request (the Inspector's "Send Request"); the result is returned unchecked. */
  request(server: string, method: string, params: Record<string, unknown> | undefined, opts?: CallOptions): Promise<unknown>;
}

function prefixed(logger: Logger, prefix: string): Logger {
  return {
    trace: (m) => logger.trace(`${prefix} ${m}`),
    debug: (m) => logger.debug(`${prefix} ${m}`),
    info: (m) => logger.info(`${prefix} ${m}`),
    warn: (m) => logger.warn(`${prefix} ${m}`),
    error: (m) => logger.error(`${prefix} ${m}`),
  };
}

export class Manager implements ConnectionManager {
  private readonly emitter = new Emitter<ServerChangeEvent>();
  readonly onDidChangeServer = this.emitter.event;
  private readonly entries = new Map<string, Entry>();
  private order: string[] = [];
  private readonly settings: ConnectionSettings;
  private readonly localPool: Pool;
  private readonly remotePool: Pool;
  private readonly clock: Clock;
  private readonly capabilities: ClientCapabilities;
  private readonly clientInfo: { name: string; version: string };
  private settledWaiters: (() => void)[] = [];
  private readonly subscriptions: Disposable[] = [];
  private disposed = false;

  constructor(private readonly options: HostOptions) {
    this.settings = readSettings(options);
    this.localPool = new Pool(this.settings.localConcurrency);
    this.remotePool = new Pool(this.settings.remoteConcurrency);
    this.clock = options.clock ?? systemClock;
    this.clientInfo = options.clientInfo ?? { name: 'mcp-host', version: '0.1.0' };
    this.capabilities = clientCapabilities(options);
    if (options.roots) {
      this.subscriptions.push(
        options.roots.onDidChange(() => {
          for (const e of this.entries.values()) e.conn?.client.sendRootsListChanged().catch((err) => e.log.debug(`roots/list_changed not sent: ${errorMessage(err)}`));
        }),
      );
    }
  }

  // ---- observation -------------------------------------------------------------------------

  servers(): ServerSnapshot[] {
    return this.order.map((n) => this.snapshot(this.entries.get(n)!));
  }

  server(name: string): ServerSnapshot | undefined {
    const e = this.entries.get(name);
    return e && this.snapshot(e);
  }

  recentStderr(name: string): string {
    const e = this.entries.get(name);
    return (e?.conn?.stdio ?? e?.lastStdio)?.stderr.text ?? '';
  }

  pid(name: string): number | undefined {
    return this.entries.get(name)?.conn?.stdio?.pid;
  }

  private snapshot(e: Entry): ServerSnapshot {
    return {
      name: e.name,
      definition: e.def,
      state: e.state,
      tools: e.tools,
      resources: e.resources,
      resourceTemplates: e.resourceTemplates,
      prompts: e.prompts,
    };
  }

  private fire(e: Entry): void {
    if (e.removed) return;
    this.emitter.fire({ name: e.name, snapshot: this.snapshot(e) });
  }

  private setState(e: Entry, state: ConnectionState): void {
    e.state = state;
    this.fire(e);
    this.checkSettled();
  }

  whenSettled(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private isSettled(): boolean {
    for (const e of this.entries.values()) {
      if (e.attempt || e.reconnectTimer || e.state.kind === 'pending') return false;
    }
    return true;
  }

  private checkSettled(): void {
    if (this.settledWaiters.length === 0 || !this.isSettled()) return;
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    for (const w of waiters) w();
  }

  // ---- definitions -------------------------------------------------------------------------

  setDefinitions(defs: ServerDefinition[]): void {
    if (this.disposed) throw new Error('the host has been disposed');
    const seen = new Set<string>();
    const next: ServerDefinition[] = [];
    for (const d of defs) {
      if (seen.has(d.name)) {
        this.options.logger.warn(`server "${d.name}" is defined twice; using the first definition`);
        continue;
      }
      seen.add(d.name);
      next.push(d);
    }
    for (const [name, e] of this.entries) {
      if (!seen.has(name)) {
        e.removed = true;
        this.entries.delete(name);
        void this.shutdown(e);
        this.emitter.fire({ name, snapshot: undefined });
      }
    }
    this.order = next.map((d) => d.name);
    for (const def of next) {
      const e = this.entries.get(def.name);
      if (!e) {
        const entry: Entry = {
          name: def.name,
          def,
          state: def.config.disabled ? { kind: 'disabled', reason: 'config' } : { kind: 'pending', attempt: 1, maxAttempts: 1, since: this.clock.now() },
          tools: [],
          resources: [],
          resourceTemplates: [],
          prompts: [],
          launch: 0,
          removed: false,
          log: this.options.serverLogger?.(def.name) ?? prefixed(this.options.logger, `[${def.name}]`),
        };
        this.entries.set(def.name, entry);
        if (def.config.disabled) this.fire(entry);
        else void this.connect(entry, 1);
      } else if (e.def.hash !== def.hash) {
        e.def = def;
        const restarting = this.shutdown(e);
        // Show the restart at once, not a stale "connected" while the old process is stopping.
        if (!def.config.disabled) this.setState(e, { kind: 'pending', attempt: 1, maxAttempts: 1, since: this.clock.now() });
        void restarting.then(() => {
          if (e.removed || this.disposed) return;
          if (def.config.disabled) this.setState(e, { kind: 'disabled', reason: 'config' });
          else void this.connect(e, 1);
        });
      }
    }
    this.checkSettled();
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  async start(name: string): Promise<void> {
    const e = this.entry(name);
    if (e.def.config.disabled) {
      this.setState(e, { kind: 'disabled', reason: 'config', message: `${name} is disabled in its configuration` });
      return;
    }
    if (e.conn) return;
    if (e.attempt) return e.attempt.promise;
    this.cancelReconnect(e);
    await this.connect(e, 1);
  }

  async stop(name: string): Promise<void> {
    const e = this.entry(name);
    await this.shutdown(e);
    if (!e.removed) this.setState(e, { kind: 'disabled', reason: 'user', message: 'stopped' });
  }

  async restart(name: string): Promise<void> {
    const e = this.entry(name);
    await this.shutdown(e);
    if (e.def.config.disabled) {
      this.setState(e, { kind: 'disabled', reason: 'config' });
      return;
    }
    await this.connect(e, 1);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    const all = [...this.entries.values()];
    await Promise.all(all.map((e) => this.shutdown(e)));
    for (const w of this.settledWaiters) w();
    this.settledWaiters = [];
    this.emitter.dispose();
  }

  /** Drops the live connection and any attempt in flight; resolves when every process is gone. */
  private async shutdown(e: Entry): Promise<void> {
    e.launch++;
    this.cancelReconnect(e);
    const attempt = e.attempt;
    attempt?.abort.abort();
    const conn = e.conn;
    e.conn = undefined;
    this.clearLists(e);
    if (conn) conn.closedBecause = `${e.name} was stopped`;
    await Promise.all([conn?.close(), attempt?.promise]);
  }

  private cancelReconnect(e: Entry): void {
    e.reconnectTimer?.dispose();
    e.reconnectTimer = undefined;
  }

  private clearLists(e: Entry): void {
    e.tools = [];
    e.resources = [];
    e.resourceTemplates = [];
    e.prompts = [];
  }

  private entry(name: string): Entry {
    const e = this.entries.get(name);
    if (!e) {
      const known = this.order.length ? this.order.join(', ') : '(none)';
      throw new HostError('unknown-server', `unknown server "${name}"; known servers: ${known}`);
    }
    return e;
  }

  // ---- connecting --------------------------------------------------------------------------

  /** Starts an attempt; resolves when it settled (never rejects: the outcome is the state). */
  private connect(e: Entry, attemptNo: number): Promise<void> {
    const launch = ++e.launch;
    const abort = new AbortController();
    const remote = isRemote(e.def.config);
    const maxAttempts = attemptNo > 1 ? this.settings.maxReconnectAttempts : 1;
    this.setState(e, { kind: 'pending', attempt: attemptNo, maxAttempts, since: this.clock.now() });
    const pool = e.def.config.type === 'inprocess' ? undefined : remote ? this.remotePool : this.localPool;
    const promise = (async () => {
      let release: () => void;
      try {
        release = pool ? await pool.acquire(abort.signal) : () => {};
      } catch {
        // Stopped while waiting for a slot.
        if (e.attempt?.launch === launch) e.attempt = undefined;
        this.checkSettled();
        return;
      }
      try {
        if (launch !== e.launch || this.disposed) return;
        await this.attempt(e, launch, attemptNo, abort.signal);
      } catch (err) {
        e.log.error(`unexpected error while connecting: ${errorMessage(err)}`);
        if (launch === e.launch) this.setState(e, { kind: 'failed', error: { code: 'internal', message: errorMessage(err) }, at: this.clock.now() });
      } finally {
        release();
        if (e.attempt?.launch === launch) e.attempt = undefined;
        this.checkSettled();
      }
    })();
    e.attempt = { launch, promise, abort };
    return promise;
  }

  private async attempt(e: Entry, launch: number, attemptNo: number, signal: AbortSignal): Promise<void> {
    const def = e.def;
    const timeoutMs = connectTimeoutFor(def.config, this.settings);
    const stale = (): boolean => launch !== e.launch || e.removed || this.disposed;
    let conn: LiveConnection;
    try {
      conn = await openConnection(def, {
        clientInfo: this.clientInfo,
        capabilities: this.capabilities,
        logger: e.log,
        authProvider: def.config.type === 'stdio' || def.config.type === 'inprocess' ? undefined : this.options.authProvider?.(def),
        timeoutMs,
        signal,
        setupClient: (client) => this.setupClient(e, client),
        wrapTransport: this.options.wrapTransport,
      });
    } catch (err) {
      if (stale()) return;
      this.onAttemptFailed(e, err, attemptNo);
      return;
    }
    if (stale()) {
      await conn.close();
      return;
    }
    e.lastStdio = conn.stdio;
    let lists: Awaited<ReturnType<typeof fetchLists>>;
    try {
      lists = await fetchLists(conn.client, timeoutMs, e.log);
    } catch (err) {
      // Only needs-auth escapes fetchLists; every other list error yields an empty list.
      await conn.close();
      if (!stale()) this.onAttemptFailed(e, err, attemptNo);
      return;
    }
    if (stale()) {
      await conn.close();
      return;
    }
    if (conn.closed) {
      // It died between initialize and the lists: a failed attempt, not a connected server.
      await conn.close();
      const why = conn.stdio ? `${e.name} ${conn.stdio.describeExit()}` : `${e.name} closed the connection right after connecting`;
      this.onAttemptFailed(e, new HostError(conn.stdio ? 'server-exited' : 'connection-closed', why), attemptNo);
      return;
    }
    this.watch(e, conn);
    e.conn = conn;
    e.tools = wrapTools(e.name, lists.tools, this.takenNames(e));
    e.resources = wrapResources(e.name, lists.resources);
    e.resourceTemplates = wrapResourceTemplates(e.name, lists.resourceTemplates);
    e.prompts = wrapPrompts(e.name, lists.prompts);
    const client = conn.client;
    const info = client.getServerVersion();
    const instructions = sanitizeInstructions(client.getInstructions());
    e.log.info(`connected in ${conn.connectMs} ms (${e.tools.length} tools, ${e.resources.length} resources, ${e.prompts.length} prompts)`);
    this.setState(e, {
      kind: 'connected',
      serverInfo: { name: info?.name ?? e.name, version: info?.version ?? '', ...(info?.title ? { title: info.title } : {}) },
      capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      ...(instructions !== undefined ? { instructions } : {}),
      connectedAt: this.clock.now(),
      connectMs: conn.connectMs,
    });
  }

  private onAttemptFailed(e: Entry, err: unknown, attemptNo: number): void {
    if (err instanceof NeedsAuthError) {
      // No retry loop: the user authenticates, then the front end restarts the server.
      e.log.warn(err.message);
      this.setState(e, { kind: 'needs-auth', message: err.message, at: this.clock.now() });
      return;
    }
    const info = err instanceof HostError ? err.toInfo() : { code: 'connect-failed', message: errorMessage(err) };
    e.log.error(`connect failed: ${info.message}`);
    if (attemptNo > 1 && isRemote(e.def.config)) {
      this.scheduleReconnect(e, attemptNo + 1, info.message);
      return;
    }
    this.setState(e, { kind: 'failed', error: info, at: this.clock.now() });
  }

  private scheduleReconnect(e: Entry, attemptNo: number, lastError: string): void {
    if (attemptNo > this.settings.maxReconnectAttempts) {
      this.setState(e, {
        kind: 'failed',
        error: { code: 'reconnect-failed', message: `${e.name}: gave up reconnecting after ${this.settings.maxReconnectAttempts} attempts: ${lastError}`, hint: 'Restart the server once it is reachable again.' },
        at: this.clock.now(),
      });
      return;
    }
    const delay = backoffDelay(attemptNo - 1, this.settings);
    e.log.info(`reconnecting in ${delay} ms (attempt ${attemptNo} of ${this.settings.maxReconnectAttempts})`);
    this.cancelReconnect(e);
    const launch = e.launch;
    e.reconnectTimer = this.clock.setTimeout(() => {
      e.reconnectTimer = undefined;
      if (launch !== e.launch || e.removed || this.disposed) return;
      void this.connect(e, attemptNo);
    }, delay);
    this.setState(e, { kind: 'pending', attempt: attemptNo, maxAttempts: this.settings.maxReconnectAttempts, since: this.clock.now() });
  }

  /** Close and error handling for a live connection. */
  private watch(e: Entry, conn: LiveConnection): void {
    const client = conn.client;
    client.onerror = (err) => {
      if (e.conn !== conn) return;
      if (isRemote(e.def.config) && isTerminalNetworkError(err)) {
        conn.health.terminalErrors++;
        e.log.warn(`transport error ${conn.health.terminalErrors}/${TERMINAL_ERROR_LIMIT}: ${errorMessage(err)}`);
        if (conn.health.terminalErrors >= TERMINAL_ERROR_LIMIT) {
          conn.closedBecause = `${e.name}: lost the connection (${errorMessage(err)})`;
          // Closing rejects every pending call at once instead of letting each run into its timeout.
          void conn.close();
        }
        return;
      }
      e.log.debug(`protocol error: ${errorMessage(err)}`);
    };
    const markClosed = client.onclose;
    client.onclose = () => {
      markClosed?.();
      if (e.conn !== conn) return;
      e.conn = undefined;
      this.clearLists(e);
      const why = conn.stdio ? `${e.name} ${conn.stdio.describeExit()}` : (conn.closedBecause ?? `${e.name} closed the connection`);
      conn.closedBecause ??= why;
      e.log.warn(`connection closed: ${why}`);
      // Kill what is left of the tree (grandchildren of a server that died).
      void conn.close();
      if (isRemote(e.def.config) && !this.disposed && !e.removed) {
        this.scheduleReconnect(e, 2, why);
      } else {
        const code = conn.stdio ? 'server-exited' : 'connection-closed';
        this.setState(e, { kind: 'failed', error: { code, message: why, hint: 'The next use reconnects; see the server log for details.' }, at: this.clock.now() });
      }
    };
  }

  private takenNames(e: Entry): Set<string> {
    const taken = new Set<string>();
    for (const other of this.entries.values()) if (other !== e) for (const t of other.tools) taken.add(t.qualifiedName);
    return taken;
  }

  private setupClient(e: Entry, client: Client): void {
    installClientHandlers(client, {
      server: e.name,
      roots: this.options.roots,
      elicitation: this.options.elicitation,
      refresh: async (kind) => {
        const conn = e.conn;
        if (!conn || conn.client !== client) return;
        const list = await fetchList(client, kind, connectTimeoutFor(e.def.config, this.settings), e.log);
        if (e.conn !== conn) return;
        if (kind === 'tools') e.tools = wrapTools(e.name, list as Tool[], this.takenNames(e));
        else if (kind === 'resources') e.resources = wrapResources(e.name, list as Resource[]);
        else if (kind === 'resourceTemplates') e.resourceTemplates = wrapResourceTemplates(e.name, list as ResourceTemplate[]);
        else e.prompts = wrapPrompts(e.name, list as Prompt[]);
        e.log.debug(`${kind} list changed`);
        this.fire(e);
      },
    });
  }

  // ---- using -------------------------------------------------------------------------------

  /** The live connection, connecting first if needed (lazy reconnect). */
  private async ensureConnected(e: Entry): Promise<LiveConnection> {
    if (e.conn) return e.conn;
    if (this.disposed) throw new HostError('stopped', 'the host has been disposed');
    const s = e.state;
    if (s.kind === 'disabled') {
      throw new HostError('disabled', s.reason === 'user' ? `${e.name} is stopped` : `${e.name} is disabled${s.message ? `: ${s.message}` : ''}`, 'Start or enable the server first.');
    }
    if (s.kind === 'needs-auth') throw new HostError('needs-auth', s.message, 'Run "MCP Host: Authenticate" for this server.');
    if (e.reconnectTimer && s.kind === 'pending') {
      throw new HostError('reconnecting', `${e.name} lost its connection and is reconnecting (attempt ${s.attempt} of ${s.maxAttempts})`, 'Try again in a moment, or restart the server.');
    }
    await (e.attempt ? e.attempt.promise : this.connect(e, 1));
    if (e.conn) return e.conn;
    const after = e.state;
    if (after.kind === 'failed') throw new HostError(after.error.code as never, after.error.message, after.error.hint);
    if (after.kind === 'needs-auth') throw new HostError('needs-auth', after.message, 'Run "MCP Host: Authenticate" for this server.');
    throw new HostError('connect-failed', `${e.name} is not connected (${after.kind})`);
  }

  private requestOptions(opts: CallOptions | undefined): RequestOptions & { timeout: number } {
    const o: RequestOptions & { timeout: number } = {
      timeout: opts?.timeoutMs ?? this.settings.toolTimeoutMs,
      // A server reporting progress is alive: each progress notification restarts the timer.
      resetTimeoutOnProgress: true,
    };
    if (opts?.signal) o.signal = opts.signal;
    if (opts?.onProgress) {
      const cb = opts.onProgress;
      o.onprogress = (p) => cb({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) });
    }
    return o;
  }

  /** Runs `op` on the live connection; session expiry gets a new session and one retry. */
  private async use<T>(name: string, what: string, opts: CallOptions | undefined, op: (conn: LiveConnection, e: Entry) => Promise<T>): Promise<T> {
    const e = this.entry(name);
    if (opts?.signal?.aborted) throw new HostError('cancelled', `${what} was cancelled`);
    let conn = await this.ensureConnected(e);
    try {
      return await op(conn, e);
    } catch (err) {
      if (!isSessionExpired(err)) throw this.callError(err, e, conn, what, opts);
      e.log.info('the server ended our session (HTTP 404, -32001); starting a new session and retrying once');
      if (e.conn === conn) {
        await this.shutdown(e);
        await this.connect(e, 1);
      }
      conn = await this.ensureConnected(e);
      try {
        return await op(conn, e);
      } catch (err2) {
        throw this.callError(err2, e, conn, what, opts);
      }
    }
  }

  private callError(err: unknown, e: Entry, conn: LiveConnection, what: string, opts: CallOptions | undefined): Error {
    if (err instanceof HostError) return err;
    if (opts?.signal?.aborted) return new HostError('cancelled', `${what} was cancelled`, undefined, { cause: err });
    if (isRequestTimeout(err)) {
      const ms = opts?.timeoutMs ?? this.settings.toolTimeoutMs;
      return new HostError('request-timeout', `${what} on ${e.name} timed out after ${ms} ms`, 'Raise the call timeout (MCP_TOOL_TIMEOUT) if the server is just slow.', { cause: err });
    }
    if (isUnauthorized(err) || isUnauthorized((err as { cause?: unknown } | undefined)?.cause)) {
      // The token stopped working mid-session (revoked, or refresh failed): same as at connect time.
      const message = `${e.name} needs authentication: ${errorMessage(err)}`;
      e.log.warn(message);
      if (e.conn === conn) {
        void this.shutdown(e)
          .catch(() => undefined)
          .then(() => this.setState(e, { kind: 'needs-auth', message, at: this.clock.now() }));
      }
      return new HostError('needs-auth', `${what} failed: ${message}`, 'Authenticate the server, then try again.', { cause: err });
    }
    if (conn.closedBecause || isConnectionClosed(err)) {
      const why = conn.closedBecause ?? (conn.stdio ? `${e.name} ${conn.stdio.describeExit()}` : `${e.name} closed the connection`);
      return new HostError(conn.stdio ? 'server-exited' : 'connection-closed', `${what} failed: ${why}`, 'The next call reconnects.', { cause: err });
    }
    return new HostError('server-error', `${what} on ${e.name} failed: ${errorMessage(err)}`, undefined, { cause: err });
  }

  async callTool(server: string, tool: string, args: Record<string, unknown>, opts?: CallOptions): Promise<ToolCallResult> {
    return this.use(server, `tool ${tool}`, opts, async (conn, e) => {
      const t = e.tools.find((x) => x.name === tool) ?? e.tools.find((x) => x.qualifiedName === tool);
      if (!t) {
        const names = e.tools.map((x) => x.name);
        const shown = names.length > 30 ? `${names.slice(0, 30).join(', ')}, … (${names.length} in all)` : names.join(', ') || '(none)';
        throw new HostError('unknown-tool', `${server} has no tool "${tool}"; its tools: ${shown}`);
      }
      const problems = validateToolArgs(t, args);
      if (problems.length) throw new HostError('invalid-arguments', `invalid arguments for ${t.qualifiedName}: ${problems.join('; ')}`);
      const started = this.clock.now();
      const raw = await conn.client.callTool({ name: t.name, arguments: args }, undefined, this.requestOptions(opts));
      return toToolCallResult(raw as CallToolResult, this.clock.now() - started, this.options.blobDir);
    });
  }

  async request(server: string, method: string, params: Record<string, unknown> | undefined, opts?: CallOptions): Promise<unknown> {
    return this.use(server, method, opts, (conn) => conn.client.request({ method, ...(params ? { params } : {}) } as never, anyResult, this.requestOptions(opts)));
  }

  async readResource(server: string, uri: string, opts?: CallOptions): Promise<ResourceReadResult> {
    return this.use(server, `reading ${uri}`, opts, async (conn) => {
      const raw = await conn.client.readResource({ uri }, this.requestOptions(opts));
      return toResourceReadResult(raw, this.options.blobDir);
    });
  }

  async getPrompt(server: string, name: string, args: Record<string, string>, opts?: CallOptions): Promise<PromptGetResult> {
    return this.use(server, `prompt ${name}`, opts, async (conn) => {
      const raw = await conn.client.getPrompt({ name, arguments: args }, this.requestOptions(opts));
      return toPromptGetResult(raw, this.options.blobDir);
    });
  }
}
