/**
 * The lifecycle table, walked pair by pair on a real ServerConnection: for every phase, a fresh
 * connection is brought there (in-process MCP servers over InMemoryTransport pairs, an `http`
 * definition through the `transportFor` port so the remote paths run, timers on a fake clock), the
 * event is fired, and the phase it ends in is checked against the table. What a launch reports in
 * an allowed pair (connected, failed, closed, stopped, the backoff timer) happens for real; every
 * other event goes in through `transition()`. After every change the public state and liveness
 * must agree: `connected` exactly when a live client exists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { InFlightCalls } from '../../../src/core/connection/in-flight.js';
import {
  EVENT_KINDS,
  LIFECYCLE,
  PHASE_KINDS,
  type EventKind,
  type LifecycleEvent,
  type Phase,
  type PhaseKind,
} from '../../../src/core/connection/lifecycle-table.js';
import { ServerConnection } from '../../../src/core/connection/server-connection.js';
import type { HostOptions } from '../../../src/core/host-api.js';
import { FakeClock, MemoryLogger } from '../../support/fakes.js';
import { withDeadline } from '../../support/wait.js';
import { serverContext } from './helpers.js';

const DEF: ServerDefinition = {
  name: 'walk',
  config: { type: 'http', url: 'https://walk.test/mcp' },
  source: { scope: 'user', file: 'test', jsonPath: ['walk'] },
  signature: 'url:https://walk.test/mcp',
  hash: 'h-walk',
};

/** What the next attempt's server does: serve, or wait for the test to let it serve or fail. */
type Mode = 'serve' | 'gate';

interface Rig {
  conn: ServerConnection;
  clock: FakeClock;
  log: MemoryLogger;
  servers: McpServer[];
  mode: Mode;
  /** Lets a gated attempt go on: serve, or fail with `err`. */
  gate?: { serve(): void; fail(err: Error): void };
  /** State and liveness disagreed after these changes. */
  broken: string[];
  /** Resolves at the next change event. */
  changed(): Promise<void>;
}

/** The private parts the walk reads and drives: the phase, the current launch, the one writer. */
interface Inside {
  phase: Phase;
  launch?: object;
  transition(event: LifecycleEvent): boolean;
}
const inside = (c: ServerConnection) => c as unknown as Inside;

function serveOn(r: Rig, t: Transport): Promise<void> {
  const s = new McpServer({ name: 'walk', version: '1' }, { capabilities: { tools: {} } });
  r.servers.push(s);
  return s.connect(t);
}

function newRig(): Rig {
  const clock = new FakeClock();
  const log = new MemoryLogger();
  const waiters: (() => void)[] = [];
  const r = { clock, log, servers: [], mode: 'serve', broken: [] } as unknown as Rig;
  r.changed = () => new Promise((resolve) => waiters.push(resolve));
  const options = {
    logger: log,
    blobDir: '/nonexistent-blobs',
    env: {},
    clock,
    backoff: { baseMs: 1000, maxMs: 30_000, maxAttempts: 3 },
    transportFor: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const mode = r.mode;
      const beforeConnect = (): Promise<void> =>
        mode === 'serve'
          ? serveOn(r, serverSide)
          : new Promise<void>((resolve, reject) => {
              r.gate = { serve: () => void serveOn(r, serverSide).then(resolve, reject), fail: reject };
            });
      return { transport: clientSide, beforeConnect };
    },
  } satisfies HostOptions;
  const ctx = serverContext(options);
  r.conn = new ServerConnection(DEF, ctx, {
    name: DEF.name,
    log,
    calls: new InFlightCalls(),
    listsArrived: () => {},
    listsLost: () => {},
    attemptFailed: () => {},
    plugins: [],
    changed: () => {
      const c = r.conn;
      if ((c.state.kind === 'connected') !== (c.live !== undefined))
        r.broken.push(`${inside(c).phase.kind}: state ${c.state.kind}, ${c.live ? 'a live client' : 'no live client'}`);
      for (const w of waiters.splice(0)) w();
    },
  });
  return r;
}

/** Resolves once the phase is `kind`, waiting on change events, never on time. */
async function until(r: Rig, kind: PhaseKind): Promise<void> {
  await withDeadline(
    (async () => {
      while (inside(r.conn).phase.kind !== kind) await r.changed();
    })(),
    `phase ${kind} (now ${inside(r.conn).phase.kind})`,
    10_000,
  );
}

/** A fresh connection in phase `kind`. */
async function rigIn(kind: PhaseKind): Promise<Rig> {
  const r = newRig();
  const c = r.conn;
  switch (kind) {
    case 'idle':
      break; // Created, not begun: pending, nothing launched.
    case 'connecting':
      r.mode = 'gate';
      c.begin();
      break;
    case 'connected':
      c.begin();
      await until(r, 'connected');
      break;
    case 'waiting-to-reconnect':
      c.begin();
      await until(r, 'connected');
      await r.servers[0].close();
      await until(r, 'waiting-to-reconnect');
      break;
    case 'stopping':
      c.begin();
      await until(r, 'connected');
      void c.stop();
      break;
    case 'removed':
      c.begin();
      await until(r, 'connected');
      await c.remove();
      break;
  }
  assert.equal(inside(c).phase.kind, kind, `the rig reached ${kind}`);
  return r;
}

/** Fires `event` the way it happens for real where the table allows it, else through `transition()`. */
async function fire(r: Rig, from: PhaseKind, event: EventKind): Promise<void> {
  const allowed = LIFECYCLE[from][event] !== undefined;
  const c = inside(r.conn);
  const before = c.phase;
  if (allowed && from === 'connecting' && event === 'connected') return r.gate!.serve();
  if (allowed && from === 'connecting' && event === 'failed') return r.gate!.fail(new Error('connect ECONNREFUSED'));
  if (allowed && event === 'closed') return void (await r.servers[0].close());
  if (allowed && event === 'retry') return r.clock.advance(30_000);
  if (allowed && event === 'stopped') return void (await (before as Extract<Phase, { kind: 'stopping' }>).done);
  const launch = c.launch as object;
  const events: Record<EventKind, LifecycleEvent> = {
    start: { kind: 'start' },
    restart: { kind: 'restart' },
    retry: { kind: 'retry', attempt: 2 },
    stop: { kind: 'stop' },
    hold: { kind: 'hold' },
    remove: { kind: 'remove' },
    'token-rejected': { kind: 'token-rejected', message: 'token revoked' },
    unresponsive: { kind: 'unresponsive', launch, why: 'did not answer a ping within 1 ms' },
    stopped: { kind: 'stopped', of: before },
    connected: { kind: 'connected', launch, shown: before.shown },
    failed: { kind: 'failed', launch, err: new Error('boom') },
    closed: { kind: 'closed', launch, why: 'gone', code: 'connection-closed' },
    warned: { kind: 'warned' },
  };
  const took = c.transition(events[event]);
  assert.equal(took, allowed, `transition() ${allowed ? 'took' : 'refused'} ${event} while ${from}`);
  if (!allowed) {
    assert.equal(c.phase, before, 'a refused event leaves the phase as it was');
    assert.ok(
      r.log.lines.some((l) => l.includes(`lifecycle: ${event} ignored while ${from}`)),
      'a refused event says why in the log',
    );
  }
}

for (const from of PHASE_KINDS) {
  for (const event of EVENT_KINDS) {
    const allowed = LIFECYCLE[from][event];
    test(`${from} + ${event} → ${allowed ? allowed.join(' | ') : 'refused'}`, async () => {
      const r = await rigIn(from);
      try {
        const before = inside(r.conn).phase;
        await fire(r, from, event);
        if (allowed) {
          // Launch-reported events land after some I/O: wait for the phase to move.
          await withDeadline(
            (async () => {
              while (inside(r.conn).phase === before) await r.changed();
            })(),
            `a move from ${from} on ${event}`,
            10_000,
          );
          const to = inside(r.conn).phase.kind;
          assert.ok(allowed.includes(to), `${from} + ${event} ended in ${to}, the table allows ${allowed.join(', ')}`);
        }
        assert.deepEqual(r.broken, [], 'state and liveness agreed after every change');
        assert.ok(!r.log.lines.some((l) => /lifecycle invariant broken|would lead to/.test(l)), r.log.lines.join('\n'));
      } finally {
        await r.conn.remove();
      }
    });
  }
}

test('the table names every phase, and only known phases and events', () => {
  assert.deepEqual(Object.keys(LIFECYCLE).sort(), [...PHASE_KINDS].sort());
  for (const from of PHASE_KINDS) {
    for (const [event, to] of Object.entries(LIFECYCLE[from])) {
      assert.ok(EVENT_KINDS.includes(event as EventKind), `${from}: unknown event ${event}`);
      for (const k of to ?? []) assert.ok(PHASE_KINDS.includes(k), `${from} + ${event}: unknown phase ${k}`);
    }
  }
  // Nothing leaves `removed`.
  assert.deepEqual(LIFECYCLE.removed, {});
});
