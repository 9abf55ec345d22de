/**
 * One launch (launch.ts) on in-process MCP servers over InMemoryTransport pairs, timers on a fake
 * clock: its disposal ends everything it started, a crash is reported once, and a new launch asks
 * for its transport only once the previous launch's tree is gone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { InFlightCalls } from '../../../src/core/connection/in-flight.js';
import { Launch, type LaunchOwner } from '../../../src/core/connection/launch.js';
import type { HostOptions } from '../../../src/core/host-api.js';
import { FakeClock, MemoryLogger } from '../../support/fakes.js';
import { withDeadline } from '../../support/wait.js';
import { serverContext } from './helpers.js';

const DEF: ServerDefinition = {
  name: 'one',
  config: { type: 'http', url: 'https://one.test/mcp' },
  source: { scope: 'user', file: 'test', jsonPath: ['one'] },
  signature: 'url:https://one.test/mcp',
  hash: 'h-one',
};

interface Rig {
  clock: FakeClock;
  owner: LaunchOwner;
  /** What the launches reported, in order. */
  reports: string[];
  /** The client side of each attempt's pair, in order. */
  clients: Transport[];
  servers: McpServer[];
  /** Resolves at the next report. */
  reported(): Promise<void>;
  ctx: ReturnType<typeof serverContext>;
}

function newRig(opts: { pingIntervalMs?: number; slowClose?: Promise<void> } = {}): Rig {
  const clock = new FakeClock();
  const log = new MemoryLogger();
  const waiters: (() => void)[] = [];
  const r = { clock, reports: [], clients: [], servers: [] } as unknown as Rig;
  const report = (what: string): void => {
    r.reports.push(what);
    for (const w of waiters.splice(0)) w();
  };
  r.reported = () => new Promise((resolve) => waiters.push(resolve));
  const options = {
    logger: log,
    blobDir: '/nonexistent-blobs',
    env: {},
    clock,
    transportFor: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const first = r.clients.length === 0;
      r.clients.push(clientSide);
      if (first && opts.slowClose) {
        // The first launch's "process tree" takes until `slowClose` to go.
        const close = clientSide.close.bind(clientSide);
        clientSide.close = async () => {
          await opts.slowClose;
          await close();
        };
      }
      const s = new McpServer({ name: 'one', version: '1' }, { capabilities: { tools: {} } });
      r.servers.push(s);
      return { transport: clientSide, beforeConnect: () => s.connect(serverSide) };
    },
  } satisfies HostOptions;
  r.ctx = serverContext(options, opts.pingIntervalMs ? { pingIntervalMs: opts.pingIntervalMs } : {});
  r.owner = {
    name: DEF.name,
    log,
    calls: new InFlightCalls(),
    plugins: [],
    connected: () => report('connected'),
    failed: (_l, err) => report(`failed: ${String(err)}`),
    closed: (_l, why) => report(`closed: ${why}`),
    unresponsive: (_l, why) => report(`unresponsive: ${why}`),
  };
  return r;
}

async function connectedLaunch(r: Rig, previous?: Launch): Promise<Launch> {
  const next = r.reported();
  const launch = new Launch(DEF, 1, r.ctx, r.owner, previous);
  await withDeadline(next, 'a report');
  assert.equal(r.reports.at(-1), 'connected');
  assert.ok(launch.live, 'connected means a live client');
  return launch;
}

test('dispose ends everything the launch started: the client, its transport, the ping timer', async () => {
  const r = newRig({ pingIntervalMs: 5_000 });
  const launch = await connectedLaunch(r);
  assert.ok(r.clock.pending() > 0, 'pinging on the clock while connected');
  let serverSawClose = false;
  r.servers[0].server.onclose = () => (serverSawClose = true);
  await withDeadline(launch.dispose(), 'the disposal');
  assert.equal(launch.live, undefined);
  assert.equal(r.clock.pending(), 0, 'no timer of the launch is left');
  assert.ok(serverSawClose, 'the transport was closed');
  assert.deepEqual(r.reports, ['connected'], 'a disposal is not reported as a crash');
});

test('a crash is reported once; the launch is no longer live', async () => {
  const r = newRig({ pingIntervalMs: 5_000 });
  const launch = await connectedLaunch(r);
  const next = r.reported();
  await r.servers[0].close();
  await withDeadline(next, 'the close report');
  assert.equal(launch.live, undefined);
  assert.equal(r.clock.pending(), 0, 'pings stopped with the connection');
  await withDeadline(launch.dispose(), 'the disposal');
  assert.deepEqual(r.reports, ['connected', 'closed: one closed the connection']);
});

test('a new launch asks for its transport only once the previous launch is gone', async () => {
  let release!: () => void;
  const slowClose = new Promise<void>((resolve) => (release = resolve));
  const r = newRig({ slowClose });
  const first = await connectedLaunch(r);
  let firstGone = false;
  const gone = first.dispose().then(() => (firstGone = true));
  const second = new Launch(DEF, 1, r.ctx, r.owner, first);
  // Without the wait, the second launch's transport is asked for synchronously in its constructor.
  assert.equal(r.clients.length, 1, 'the second launch waits while the first one is still closing');
  assert.equal(second.live, undefined);
  release();
  await withDeadline(gone, 'the first launch to go');
  await withDeadline(second.settled, 'the second launch');
  assert.ok(firstGone);
  assert.equal(r.clients.length, 2);
  assert.ok(second.live, 'the second launch connected');
  await second.dispose();
});
