/**
 * The lifecycle of one server as data: its phases, the events that move it, and the one table of
 * allowed moves. `ServerConnection.transition` is the only writer of a phase and refuses (logs, does
 * nothing) a pair the table does not list; the unit test walks every pair of it
 * (test/unit/connection/lifecycle-table.test.ts). Pure: no I/O, no clock.
 */
import type { ConnectionState } from './state.js';

/** Why a stop is under way, and so what follows it once the process tree is gone. */
export type StopNext =
  | { kind: 'stopped' }
  | { kind: 'held' }
  | { kind: 'needs-auth'; message: string }
  /** Unresponsive: the failed state lasts while the old process stops, then it reconnects. */
  | { kind: 'reconnect'; why: string };

/**
 * What the server is doing. Every phase carries `shown`, the public state the tree, the CLI and the
 * gateway see (state.ts): the phases refine the public kinds, they do not add any.
 */
export type Phase =
  /** Nothing runs: before the first start, failed, needs authentication, stopped or held back. */
  | { kind: 'idle'; shown: ConnectionState }
  /** The current launch is attempting (waiting for the previous tree, a pool slot, initialize, the lists). */
  | { kind: 'connecting'; attempt: number; shown: ConnectionState }
  /** The current launch has a live client. */
  | { kind: 'connected'; shown: ConnectionState }
  /** A remote server lost its connection; the current launch's timer starts attempt `attempt` at `at`. */
  | { kind: 'waiting-to-reconnect'; attempt: number; at: number; shown: ConnectionState }
  /** The current launch is being disposed; `done` settles after `next` was taken (or superseded). */
  | { kind: 'stopping'; next: StopNext; done: Promise<void>; shown: ConnectionState }
  /** Removed from the config or the host disposed: nothing more happens, nothing more fires. */
  | { kind: 'removed'; shown: ConnectionState };

export type PhaseKind = Phase['kind'];

export const PHASE_KINDS: readonly PhaseKind[] = [
  'idle',
  'connecting',
  'connected',
  'waiting-to-reconnect',
  'stopping',
  'removed',
];

/** What moves a phase. `launch` events are from one launch and ignored once it is not the current one. */
export type LifecycleEvent =
  /** Start (first start, a start, a lazy connect): a new launch unless one is already under way. */
  | { kind: 'start' }
  /** Restart (a new definition, a restart, a renewed session): the current launch goes, a new one starts. */
  | { kind: 'restart'; reason?: string; why?: string }
  /** The backoff timer of the current launch fired. */
  | { kind: 'retry'; attempt: number }
  | { kind: 'stop' }
  /** The definition does not run (any more): stop and show why. */
  | { kind: 'hold' }
  | { kind: 'remove' }
  | { kind: 'token-rejected'; message: string }
  | { kind: 'unresponsive'; launch: object; why: string }
  /** The stop `of` finished: its launch's process tree is gone. */
  | { kind: 'stopped'; of: Phase }
  | { kind: 'connected'; launch: object; shown: ConnectionState }
  | { kind: 'failed'; launch: object; err: unknown; internal?: boolean }
  | { kind: 'closed'; launch: object; why: string; code: 'server-exited' | 'connection-closed' }
  /** The connected state gained a protocol warning (cache-hints.ts). */
  | { kind: 'warned' };

export type EventKind = LifecycleEvent['kind'];

export const EVENT_KINDS: readonly EventKind[] = [
  'start',
  'restart',
  'retry',
  'stop',
  'hold',
  'remove',
  'token-rejected',
  'unresponsive',
  'stopped',
  'connected',
  'failed',
  'closed',
  'warned',
];

/** Where each event may take each phase; an absent pair is refused (a no-op with a logged reason). */
export type LifecycleTable = Record<PhaseKind, Partial<Record<EventKind, readonly PhaseKind[]>>>;

/** After a failed attempt: failed or needs-auth (idle), or a remote server's next try (waiting). */
const AFTER_FAILURE = ['idle', 'waiting-to-reconnect'] as const;

export const LIFECYCLE: LifecycleTable = {
  idle: {
    start: ['connecting'],
    restart: ['connecting'],
    // Stopping while the last launch's tree is still being killed (a crashed server's orphans).
    stop: ['idle', 'stopping'],
    hold: ['idle', 'stopping'],
    remove: ['removed'],
  },
  connecting: {
    restart: ['connecting'],
    stop: ['stopping'],
    hold: ['stopping'],
    remove: ['removed'],
    connected: ['connected'],
    failed: AFTER_FAILURE,
  },
  connected: {
    restart: ['connecting'],
    stop: ['stopping'],
    hold: ['stopping'],
    remove: ['removed'],
    'token-rejected': ['stopping'],
    unresponsive: ['stopping'],
    closed: AFTER_FAILURE,
    warned: ['connected'],
  },
  'waiting-to-reconnect': {
    start: ['connecting'],
    restart: ['connecting'],
    retry: ['connecting'],
    stop: ['stopping'],
    hold: ['stopping'],
    remove: ['removed'],
  },
  stopping: {
    start: ['connecting'],
    restart: ['connecting'],
    stop: ['stopping'],
    hold: ['stopping'],
    remove: ['removed'],
    stopped: ['idle', 'connecting'],
  },
  removed: {},
};

/** Why a pair is refused, for the log; undefined when the table allows it. */
export function refusal(from: PhaseKind, event: EventKind): string | undefined {
  if (LIFECYCLE[from][event]) return undefined;
  return `${event} ignored while ${from}`;
}

/**
 * The one rule between state and liveness: `connected` exactly when the current launch has a live
 * client, and the public state says connected exactly then. Returns what is broken, if anything.
 */
export function livenessBroken(phase: Phase, hasLiveClient: boolean): string | undefined {
  const says = phase.shown.kind === 'connected';
  if ((phase.kind === 'connected') !== hasLiveClient)
    return `phase ${phase.kind} but ${hasLiveClient ? 'a live client' : 'no live client'}`;
  if (says !== hasLiveClient)
    return `state ${phase.shown.kind} but ${hasLiveClient ? 'a live client' : 'no live client'}`;
  return undefined;
}
