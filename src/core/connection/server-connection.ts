/**
 * The connection of one configured server: one state machine (lifecycle-table.ts) and its current
 * launch (launch.ts). `transition()` is the only writer of the phase; a pair the table does not
 * list is refused with a logged reason. The launch owns everything an attempt starts; this class
 * decides what follows what it reports. What the server offers and how calls use it is the
 * entry's (server-entry.ts), which owns this object.
 */
import { runs } from '../config/admit.js';
import type { ServerDefinition } from '../config/types.js';
import type { Logger } from '../ports.js';
import { NeedsAuthError, type LiveConnection, type ServerLists } from './connect.js';
import { HostError, errorMessage } from './errors.js';
import type { InFlightCalls } from './in-flight.js';
import { Launch, type LaunchOwner } from './launch.js';
import type { LaunchPlugin, LaunchPluginFactory } from './launch-plugin.js';
import {
  LIFECYCLE,
  livenessBroken,
  refusal,
  type LifecycleEvent,
  type Phase,
  type StopNext,
} from './lifecycle-table.js';
import type { ServerContext } from './server-context.js';
import { backoffDelay, isRemote } from './settings.js';
import { heldState, redactState, type ConnectionState } from './state.js';
import { CacheHintWarnings, type CacheableMethod } from './cache-hints.js';

export { TERMINAL_ERROR_LIMIT } from './launch.js';

/** Not started yet, by the user's choice: the first use starts it (`connectNow`). */
const ON_FIRST_USE: ConnectionState = { kind: 'disabled', reason: 'on-first-use', message: 'starts on first use' };

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
  /** The entry's plugins for each launch (launch-plugin.ts): its list refresh. */
  readonly plugins: readonly LaunchPluginFactory[];
  /** State changed: fire the event. */
  changed(): void;
}

export class ServerConnection {
  /** The one lifecycle field: what the server is doing, and the state it shows. */
  private phase: Phase;
  /** The current launch, or the last one (its stderr, its process tree the next one waits for). */
  private launch: Launch | undefined;
  /** 2026-07-28 methods whose results came without cache hints: each is logged once per server. */
  private readonly warnings = new CacheHintWarnings();
  private readonly reports: LaunchOwner;

  constructor(
    public def: ServerDefinition,
    private readonly ctx: ServerContext,
    private readonly owner: ConnectionOwner,
    /** `mcpHost.startServers` is `onFirstUse` and the entry has cached lists: `begin` leaves it idle. */
    startsOnFirstUse = false,
  ) {
    const shown = !runs(def) ? heldState(def) : startsOnFirstUse ? ON_FIRST_USE : this.pending(1, 1);
    this.phase = { kind: 'idle', shown };
    this.reports = this.launchOwner();
  }

  get state(): ConnectionState {
    return this.phase.shown;
  }

  private get name(): string {
    return this.owner.name;
  }

  private get log(): Logger {
    return this.owner.log;
  }

  /** Connecting, or waiting to reconnect: not settled yet. */
  get busy(): boolean {
    const p = this.phase;
    return p.kind === 'connecting' || p.kind === 'waiting-to-reconnect' || p.shown.kind === 'pending';
  }

  get live(): LiveConnection | undefined {
    return this.launch?.live;
  }

  get isRemoved(): boolean {
    return this.phase.kind === 'removed';
  }

  /** Waiting for the backoff timer before the next reconnect attempt. */
  get waitingToReconnect(): boolean {
    return this.phase.kind === 'waiting-to-reconnect';
  }

  recentStderr(): string {
    return this.launch?.stdio?.stderr.text ?? '';
  }

  private pending(attempt: number, maxAttempts: number, reason?: string): ConnectionState {
    return { kind: 'pending', attempt, maxAttempts, since: this.ctx.clock.now(), ...(reason ? { reason } : {}) };
  }

  // ---- lifecycle (the public operations) -----------------------------------------------------

  /** A new definition (or admission) for the same name: restart, stop, or just show it. */
  update(def: ServerDefinition, restart: boolean): void {
    this.def = def;
    if (!runs(def)) this.transition({ kind: 'hold' });
    else if (restart) this.transition({ kind: 'restart' });
    else this.owner.changed();
  }

  /** First start after creation. */
  begin(): void {
    if (runs(this.def) && this.phase.shown !== ON_FIRST_USE) this.transition({ kind: 'start' });
    else this.owner.changed();
  }

  async start(): Promise<void> {
    if (!runs(this.def)) return void this.transition({ kind: 'hold' });
    const kind = this.phase.kind;
    if (kind !== 'connected' && kind !== 'connecting') this.transition({ kind: 'start' });
    await this.settled();
  }

  /** Resolves when the process tree is gone (a start or restart meanwhile is not waited for). */
  async stop(): Promise<void> {
    this.transition({ kind: 'stop' });
    const p = this.phase;
    if (p.kind === 'stopping') await p.done;
  }

  /** `reason` is shown while it reconnects (a restart the host decided on, not the user). */
  async restart(reason?: string): Promise<void> {
    if (!runs(this.def)) this.transition({ kind: 'hold' });
    else this.transition({ kind: 'restart', ...(reason ? { reason } : {}) });
    await this.settled();
  }

  /** Removed from the config (or the host is disposed): stop for good, fire nothing more. */
  async remove(): Promise<void> {
    this.transition({ kind: 'remove' });
    await this.launch?.dispose();
  }

  /**
   * The attempt under way, or a new one (lazy connect). During a stop, whatever follows it: the
   * restart's attempt, or nothing once the server is stopped, disabled or waits for authentication.
   */
  async connectNow(): Promise<void> {
    if (this.phase.kind === 'stopping') this.log.debug('waiting for the stop under way before connecting');
    await this.settled();
    const p = this.phase;
    if (p.kind === 'connected' || p.kind === 'removed' || !runs(this.def)) return;
    if ((p.shown.kind === 'disabled' && p.shown !== ON_FIRST_USE) || p.shown.kind === 'needs-auth') return;
    this.transition({ kind: 'start' });
    await this.settled();
  }

  /** The server ended the session of `conn`: a new session, unless another one replaced it already. */
  async renewSession(conn: LiveConnection): Promise<void> {
    // Replaced already: the caller's next connect (bounded by its call's budget) finds the new one.
    if (this.live !== conn) return;
    // Other calls still open on the old session end with this, not with "was stopped": the server
    // ended the session, and such a call may have run, so it is not repeated on the new one.
    const why = `${this.name} ended the session while the call was open (a new session was started; the call may or may not have run)`;
    this.transition({ kind: 'restart', why });
    await this.settled();
  }

  /** The token stopped working mid-session (revoked, or refresh failed): same as at connect time. */
  tokenRejected(conn: LiveConnection, message: string): void {
    if (this.live === conn) this.transition({ kind: 'token-rejected', message });
  }

  /**
   * Until the phase stops moving by itself: a stop under way has taken its next step, and the
   * attempt under way (the current launch's) has settled. Whatever began meanwhile is joined.
   */
  private async settled(): Promise<void> {
    for (;;) {
      const p = this.phase;
      if (p.kind === 'stopping') {
        await p.done;
        continue;
      }
      const launch = this.launch;
      if (p.kind !== 'connecting' || !launch) return;
      await launch.settled;
      if (this.launch === launch) return;
    }
  }

  // ---- the state machine -------------------------------------------------------------------

  /** The only writer of the phase: refuses what the table does not allow, then checks liveness. */
  private transition(event: LifecycleEvent): boolean {
    const from = this.phase;
    if ('launch' in event && event.launch !== this.launch) return false; // From a launch already replaced.
    if (event.kind === 'stopped' && event.of !== from) return false; // A newer operation decides.
    const refused = refusal(from.kind, event.kind);
    if (refused) {
      this.log.debug(`lifecycle: ${refused}`);
      return false;
    }
    const to = this.enter(from, event);
    if (!LIFECYCLE[from.kind][event.kind]!.includes(to.kind)) {
      // A bug, never a silent corruption: keep the phase we had.
      this.log.error(`lifecycle: ${event.kind} from ${from.kind} would lead to ${to.kind}; refused`);
      return false;
    }
    // Every state passes here, so every message it stores is redacted once (URLs, tokens, this entry's own secrets).
    to.shown = redactState(to.shown, this.def);
    this.phase = to;
    const broken = livenessBroken(this.phase, this.launch?.live !== undefined);
    if (broken) this.log.error(`lifecycle invariant broken after ${event.kind}: ${broken}`);
    // A stop's last step keeps the state it showed from the start: one change, one event.
    if (to.kind !== 'removed' && to.shown !== from.shown) this.owner.changed();
    return true;
  }

  /** The next phase for an allowed pair, with its effects (launches started and disposed, timers). */
  private enter(from: Phase, e: LifecycleEvent): Phase {
    switch (e.kind) {
      case 'start':
        return this.launchAttempt(1);
      case 'retry':
        return this.launchAttempt(e.attempt);
      case 'restart':
        this.owner.listsLost();
        return this.launchAttempt(1, e.reason, e.why);
      case 'stop':
        return this.stopping(from, { kind: 'stopped' });
      case 'hold':
        return this.stopping(from, { kind: 'held' });
      case 'token-rejected':
        return this.stopping(from, { kind: 'needs-auth', message: e.message });
      case 'unresponsive':
        this.log.warn(`${this.name} is unresponsive: it ${e.why}; reconnecting`);
        return this.stopping(from, { kind: 'reconnect', why: e.why });
      case 'remove':
        this.owner.listsLost();
        void this.launch?.dispose();
        return { kind: 'removed', shown: { kind: 'disabled', reason: 'config', message: 'removed' } };
      case 'stopped':
        return this.afterStop(e.of.kind === 'stopping' ? e.of.next : { kind: 'stopped' });
      case 'connected':
        return { kind: 'connected', shown: this.warnings.addTo(e.shown) };
      case 'failed':
        return this.afterFailure(e.err, e.internal === true);
      case 'closed':
        return this.afterClose(e.why, e.code);
      case 'warned':
        return { kind: 'connected', shown: this.warnings.addTo(from.shown) };
    }
  }

  /** A new launch; the one before is disposed, and the new one starts its process once that one's is gone. */
  private launchAttempt(attempt: number, reason?: string, why?: string): Phase {
    const previous = this.launch;
    if (why !== undefined) void previous?.dispose(why);
    this.launch = new Launch(this.def, attempt, this.ctx, this.reports, previous);
    const max = attempt > 1 ? this.ctx.settings.maxReconnectAttempts : 1;
    return { kind: 'connecting', attempt, shown: this.pending(attempt, max, reason) };
  }

  private stopping(from: Phase, next: StopNext): Phase {
    this.owner.listsLost();
    const shown = this.shownAfterStop(next);
    if (from.kind === 'idle' && !this.launch) return { kind: 'idle', shown };
    const gone = this.launch?.dispose() ?? Promise.resolve();
    // `done` settles after the step that follows the stop (or after it found itself superseded).
    const phase: Phase = {
      kind: 'stopping',
      next,
      shown,
      done: gone.then(() => void this.transition({ kind: 'stopped', of: phase })),
    };
    return phase;
  }

  private shownAfterStop(next: StopNext): ConnectionState {
    switch (next.kind) {
      case 'stopped':
        return { kind: 'disabled', reason: 'user', message: 'stopped' };
      case 'held':
        return heldState(this.def);
      case 'needs-auth':
        return { kind: 'needs-auth', message: next.message, at: this.ctx.clock.now() };
      case 'reconnect': {
        const message = `${this.name} is unresponsive: it ${next.why}`;
        return {
          kind: 'failed',
          error: { code: 'unresponsive', message, hint: 'Reconnecting now.' },
          at: this.ctx.clock.now(),
        };
      }
    }
  }

  private afterStop(next: StopNext): Phase {
    // The failed state lasted only while the old process stopped; the reconnect carries the reason,
    // so the tree shows why the server is connecting again rather than a bare "connecting".
    if (next.kind === 'reconnect') return this.launchAttempt(1, `unresponsive (it ${next.why})`);
    return { kind: 'idle', shown: this.phase.shown };
  }

  private afterFailure(err: unknown, internal: boolean): Phase {
    this.owner.attemptFailed();
    const at = this.ctx.clock.now();
    if (internal)
      return { kind: 'idle', shown: { kind: 'failed', error: { code: 'internal', message: errorMessage(err) }, at } };
    if (err instanceof NeedsAuthError) {
      // No retry loop: the user authenticates, then the front end restarts the server.
      this.log.warn(err.message);
      return { kind: 'idle', shown: { kind: 'needs-auth', message: err.message, at } };
    }
    const info =
      err instanceof HostError ? err.toInfo() : { code: 'connect-failed' as const, message: errorMessage(err) };
    this.log.error(`connect failed: ${info.message}`);
    const attempt = this.launch?.attempt ?? 1;
    if (attempt > 1 && isRemote(this.def.config)) return this.reconnectLater(attempt + 1, info.message);
    return { kind: 'idle', shown: { kind: 'failed', error: info, at } };
  }

  private afterClose(why: string, code: 'server-exited' | 'connection-closed'): Phase {
    this.owner.listsLost();
    if (isRemote(this.def.config)) return this.reconnectLater(2, why);
    const hint = 'The next use reconnects; see the server log for details.';
    return { kind: 'idle', shown: { kind: 'failed', error: { code, message: why, hint }, at: this.ctx.clock.now() } };
  }

  /** The backoff wait, on a timer of the launch that failed: a stop (disposing it) cancels the wait. */
  private reconnectLater(attempt: number, lastError: string): Phase {
    const max = this.ctx.settings.maxReconnectAttempts;
    const at = this.ctx.clock.now();
    if (attempt > max) {
      const message = `${this.name}: gave up reconnecting after ${max} attempts: ${lastError}`;
      const hint = 'Restart the server once it is reachable again.';
      return { kind: 'idle', shown: { kind: 'failed', error: { code: 'reconnect-failed', message, hint }, at } };
    }
    const delay = backoffDelay(attempt - 1, this.ctx.settings);
    this.log.info(`reconnecting in ${delay} ms (attempt ${attempt} of ${max})`);
    this.launch?.setTimeout(() => void this.transition({ kind: 'retry', attempt }), delay);
    return { kind: 'waiting-to-reconnect', attempt, at: at + delay, shown: this.pending(attempt, max) };
  }

  /**
   * Cache-hint warnings as a plugin of each launch: a 2026-07-28 result without hints is logged
   * once per server and method, and shown in the connected state (`mcp-host doctor`).
   */
  private cacheHintsPlugin(): LaunchPlugin {
    return {
      setupClient: (client) => {
        client.onMissingCacheHints = (method) => this.missingCacheHints(method);
      },
    };
  }

  private missingCacheHints(method: CacheableMethod): void {
    if (!this.warnings.add(method)) return;
    this.log.warn(this.warnings.message(method));
    // Known once connected too; a later list's warning joins the state it is in.
    if (this.phase.kind === 'connected') this.transition({ kind: 'warned' });
  }

  /** What the launches report, as events of this machine. */
  private launchOwner(): LaunchOwner {
    const owner = this.owner;
    return {
      get name() {
        return owner.name;
      },
      log: owner.log,
      calls: owner.calls,
      plugins: [...owner.plugins, () => this.cacheHintsPlugin()],
      connected: (launch, lists, shown) => {
        if (launch !== this.launch || this.phase.kind !== 'connecting') return void launch.dispose();
        owner.listsArrived(lists, launch.live!);
        this.transition({ kind: 'connected', launch, shown });
      },
      failed: (launch, err, internal) =>
        void this.transition({ kind: 'failed', launch, err, ...(internal ? { internal } : {}) }),
      closed: (launch, why, code) => void this.transition({ kind: 'closed', launch, why, code }),
      unresponsive: (launch, why) => void this.transition({ kind: 'unresponsive', launch, why }),
    };
  }
}
