/**
 * One launch of a server (VS Code's `McpServerConnection._launch`): everything an attempt starts
 * is owned here and ended by `dispose()` — the attempt's abort signal and timers (the connect
 * timeout, the backoff wait), the pool slot, the transport and its process tree, the SDK client
 * with its listen stream, and its plugins (launch-plugin.ts: the client features, the trace, era
 * verdicts, cache-hint warnings), made fresh for it and disposed with it. It starts its process
 * only once the previous launch's tree is gone, and it is the only code that watches the client
 * and its transport (`onclose`, `onerror`, the messages that reset the error count). It reports
 * what happens to it; the server's lifecycle (server-connection.ts) decides what follows.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/types.js';
import type { Logger } from '../ports.js';
import { ObservedTransport } from '../trace/transport.js';
import { connectedState, fetchLists, openConnection, type LiveConnection, type ServerLists } from './connect.js';
import { HostError, errorMessage, isTerminalNetworkError } from './errors.js';
import { AttemptScope } from './scope.js';
import type { ServerContext } from './server-context.js';
import { connectTimeoutFor, isRemote } from './settings.js';
import type { ConnectionState } from './state.js';
import type { StdioProcessTransport } from './stdio-transport.js';
import type { InFlightCalls } from './in-flight.js';
import { LaunchPlugins, type LaunchPlugin, type LaunchPluginFactory } from './launch-plugin.js';
import { transportMaker } from './launch-transport.js';

/** Consecutive terminal network errors after which a remote connection is closed. */
export const TERMINAL_ERROR_LIMIT = 3;

/** What a launch reports, and what it needs of the server it runs. */
export interface LaunchOwner {
  readonly name: string;
  readonly log: Logger;
  readonly calls: InFlightCalls;
  /** The server's own plugins, after the host's (ServerContext.plugins): its list refresh, its cache-hint warnings. */
  readonly plugins: readonly LaunchPluginFactory[];
  /** The attempt connected: its first lists, and the state to show. */
  connected(launch: Launch, lists: ServerLists, shown: ConnectionState): void;
  failed(launch: Launch, err: unknown, internal?: boolean): void;
  /** The live connection closed by itself (crash, server hung up, too many network errors). */
  closed(launch: Launch, why: string, code: 'server-exited' | 'connection-closed'): void;
  unresponsive(launch: Launch, why: string): void;
}

export class Launch {
  readonly scope: AttemptScope;
  /** The attempt ran to its end (connected, failed, or cancelled); never rejects. */
  readonly settled: Promise<void>;
  private conn: LiveConnection | undefined;
  private adopted = false;
  /** This launch's plugins: made fresh for it, disposed once when it ends (or its connection or attempt does). */
  private readonly plugins: LaunchPlugins;
  /** Consecutive terminal network errors of the live connection; any message resets it. */
  private terminalErrors = 0;
  private reaping: Promise<void> | undefined;
  private ending: Promise<void> | undefined;
  /** Nothing of this launch runs any more (its attempt failed and closed, or its disposal ended). */
  private treeGone = false;
  /** Clients of this launch that closed (a probe that fell back to initialize makes a second one). */
  private readonly closedClients = new WeakSet<Client>();
  private readonly inheritedStdio: StdioProcessTransport | undefined;

  constructor(
    private readonly def: ServerDefinition,
    readonly attempt: number,
    private readonly ctx: ServerContext,
    private readonly owner: LaunchOwner,
    previous: Launch | undefined,
  ) {
    this.scope = new AttemptScope(ctx.clock);
    this.inheritedStdio = previous?.stdio;
    this.plugins = new LaunchPlugins([() => this.watcher(), ...ctx.plugins, ...owner.plugins], {
      def,
      server: owner.name,
      log: owner.log,
      calls: owner.calls,
      unresponsive: (why) => {
        if (this.live) owner.unresponsive(this, why);
      },
    });
    const before = previous?.dispose();
    // A previous launch with nothing left running is not waited for: the attempt starts at once
    // (its connect timer set as it is shown pending, which tests on the fake clock rely on).
    this.settled = this.run(previous?.treeGone === false ? before : undefined).finally(() => ctx.attemptEnded());
  }

  /** The live client's connection, once connected and until it closes or the launch is disposed. */
  get live(): LiveConnection | undefined {
    return this.adopted ? this.conn : undefined;
  }

  /** This launch's stdio transport, else the last one before it (its stderr can still be shown). */
  get stdio(): StdioProcessTransport | undefined {
    return this.conn?.stdio ?? this.inheritedStdio;
  }

  get disposed(): boolean {
    return this.scope.disposed;
  }

  /** A timer that dies with the launch (the backoff wait before the next one). */
  setTimeout(fn: () => void, ms: number): void {
    this.scope.setTimeout(fn, ms);
  }

  /**
   * Ends everything the launch started; resolves when its process tree is gone, and the trees of
   * the launches before it. `why` is what calls still open on it end with.
   */
  dispose(why = `${this.owner.name} was stopped`): Promise<void> {
    if (this.ending) return this.ending;
    this.scope.dispose();
    const conn = this.conn;
    if (conn && this.adopted) conn.closedBecause = why;
    this.release();
    this.ending = Promise.all([this.settled, conn?.close(), this.reaping]).then(() => {
      this.treeGone = true;
    });
    return this.ending;
  }

  /** No longer live: the plugins' work for the connection ends with it. */
  private release(): void {
    this.adopted = false;
    this.plugins.dispose();
  }

  /** The attempt failed: nothing of it runs any more (its plugins end); the lifecycle decides what follows. */
  private fail(err: unknown, internal?: boolean): void {
    this.plugins.dispose();
    if (!this.disposed) this.owner.failed(this, err, internal);
  }

  private async run(before: Promise<void> | undefined): Promise<void> {
    if (before) {
      this.owner.log.debug('waiting for the previous process to stop before starting a new one');
      await before;
      if (this.disposed) return;
    }
    const pool = this.ctx.poolFor(this.def);
    let release: () => void;
    try {
      release = pool ? await pool.acquire(this.scope.signal) : () => {};
    } catch {
      return; // Stopped while waiting for a slot.
    }
    try {
      if (!this.disposed) await this.attemptConnect();
    } catch (err) {
      this.owner.log.error(`unexpected error while connecting: ${errorMessage(err)}`);
      this.fail(err, true);
    } finally {
      release();
    }
  }

  private async attemptConnect(): Promise<void> {
    const { def, ctx, owner } = this;
    const timeoutMs = connectTimeoutFor(def.config, ctx.settings);
    let conn: LiveConnection;
    try {
      const transport = transportMaker(ctx.options, owner.log, def);
      conn = await openConnection(def, {
        launch: { log: owner.log, clientInfo: ctx.clientInfo, transport },
        plugins: this.plugins,
        timeoutMs,
        signal: this.scope.signal,
        clock: ctx.clock,
      });
    } catch (err) {
      await this.plugins.connectFailed(err);
      this.treeGone = true; // openConnection closed its transport.
      this.fail(err);
      return;
    }
    this.conn = conn;
    if (this.closedClients.has(conn.client)) conn.closed = true;
    if (this.disposed) return void (await conn.close());
    await this.plugins.opened(conn);
    await this.fetchAndAdopt(conn, timeoutMs);
  }

  private async fetchAndAdopt(conn: LiveConnection, timeoutMs: number): Promise<void> {
    let lists: ServerLists;
    try {
      lists = await fetchLists(conn.client, timeoutMs, this.owner.log);
      await conn.listening;
    } catch (err) {
      // Only needs-auth escapes fetchLists; every other list error yields an empty list.
      await conn.close();
      this.treeGone = true;
      this.fail(err);
      return;
    }
    if (this.disposed) return void (await conn.close());
    if (conn.closed) {
      // It died between initialize and the lists: a failed attempt, not a connected server.
      await conn.close();
      this.treeGone = true;
      const name = this.owner.name;
      const why = conn.stdio
        ? `${name} ${conn.stdio.describeExit()}`
        : `${name} closed the connection right after connecting`;
      this.fail(new HostError(conn.stdio ? 'server-exited' : 'connection-closed', why));
      return;
    }
    this.adopted = true;
    this.terminalErrors = 0;
    this.plugins.connected(conn);
    this.owner.connected(this, lists, connectedState(this.owner.name, conn, this.ctx.clock.now()));
  }

  /**
   * The launch's own plugin, first of all: the one place a client's `onclose` and `onerror` are
   * set (before it connects), and a tap on the transport whose messages reset the error count.
   */
  private watcher(): LaunchPlugin {
    return {
      wrapTransport: (t) =>
        new ObservedTransport(t, (direction) => {
          if (direction === 'in') this.terminalErrors = 0;
        }),
      setupClient: (client) => {
        client.onclose = () => this.clientClosed(client);
        client.onerror = (err) => this.clientError(client, err);
      },
    };
  }

  private clientClosed(client: Client): void {
    this.closedClients.add(client);
    const conn = this.conn;
    if (!conn || conn.client !== client) return;
    conn.closed = true;
    if (!this.adopted) return;
    this.release();
    const name = this.owner.name;
    const why = conn.stdio
      ? `${name} ${conn.stdio.describeExit()}`
      : (conn.closedBecause ?? `${name} closed the connection`);
    conn.closedBecause ??= why;
    this.owner.log.warn(`connection closed: ${why}`);
    // Kill what is left of the tree (grandchildren of a server that died); the next launch waits for it.
    this.reaping = conn.close().then(() => {
      this.treeGone = true;
    });
    this.owner.closed(this, why, conn.stdio ? 'server-exited' : 'connection-closed');
  }

  private clientError(client: Client, err: Error): void {
    const conn = this.live;
    if (!conn || conn.client !== client) return;
    const log = this.owner.log;
    if (isRemote(this.def.config) && isTerminalNetworkError(err)) {
      this.terminalErrors++;
      log.warn(`transport error ${this.terminalErrors}/${TERMINAL_ERROR_LIMIT}: ${errorMessage(err)}`);
      if (this.terminalErrors >= TERMINAL_ERROR_LIMIT) {
        conn.closedBecause = `${this.owner.name}: lost the connection (${errorMessage(err)})`;
        // Closing rejects every pending call at once instead of letting each run into its timeout.
        void conn.close();
      }
      return;
    }
    log.debug(`protocol error: ${errorMessage(err)}`);
  }
}
