/**
 * The seam client features plug into a launch through (launch-plugin.ts), on in-process MCP
 * servers over InMemoryTransport pairs with timers on a fake clock: the hooks run in their order
 * for each launch, every plugin is disposed once when its launch, connection or attempt ends, and
 * each launch gets plugins of its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { InFlightCalls } from '../../../src/core/connection/in-flight.js';
import { Launch, type LaunchOwner } from '../../../src/core/connection/launch.js';
import type { LaunchPlugin, LaunchPluginFactory } from '../../../src/core/connection/launch-plugin.js';
import type { HostOptions } from '../../../src/core/host-api.js';
import { ObservedTransport } from '../../../src/core/trace/transport.js';
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

/** One recording plugin instance: which launch-local instance it is, and the hooks it saw. */
interface Recorded {
  id: number;
  hooks: string[];
  /** Messages its transport wrapper saw coming in: its own state, per launch. */
  received: number;
}

interface Rig {
  owner: LaunchOwner;
  ctx: ReturnType<typeof serverContext>;
  servers: McpServer[];
  instances: Recorded[];
  reports: string[];
  /** Resolves at the next report of a launch. */
  reported(): Promise<void>;
  /** The next attempt's server refuses to come up. */
  failNext: boolean;
}

function recorder(r: Rig): LaunchPluginFactory {
  return (launch) => {
    const me: Recorded = { id: r.instances.length + 1, hooks: [], received: 0 };
    r.instances.push(me);
    assert.equal(launch.server, DEF.name);
    const hook = (name: string) => me.hooks.push(name);
    const plugin: LaunchPlugin = {
      handshake: () => void hook('handshake'),
      capabilities: (caps) => {
        hook('capabilities');
        return { ...caps, experimental: { probe: { instance: me.id } } };
      },
      wrapTransport: (t, def) => {
        hook(`wrapTransport ${def.name}`);
        return new ObservedTransport(t, (direction) => {
          if (direction === 'in') me.received++;
        });
      },
      setupClient: () => hook('setupClient'),
      opened: (conn) => void hook(`opened ${conn.era}`),
      connectFailed: () => void hook('connectFailed'),
      connected: () => hook('connected'),
      dispose: () => hook('dispose'),
    };
    return plugin;
  };
}

function newRig(extra: LaunchPluginFactory[] = []): Rig {
  const clock = new FakeClock();
  const log = new MemoryLogger();
  const waiters: (() => void)[] = [];
  const r = { servers: [], instances: [], reports: [], failNext: false } as unknown as Rig;
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
      const s = new McpServer({ name: 'one', version: '1' }, { capabilities: { tools: {} } });
      r.servers.push(s);
      const fail = r.failNext;
      r.failNext = false;
      const beforeConnect = (): Promise<void> =>
        fail ? Promise.reject(new Error('the server did not come up')) : s.connect(serverSide);
      return { transport: clientSide as Transport, beforeConnect };
    },
  } satisfies HostOptions;
  r.ctx = serverContext(options);
  r.owner = {
    name: DEF.name,
    log,
    calls: new InFlightCalls(),
    plugins: [recorder(r), ...extra],
    connected: () => report('connected'),
    failed: () => report('failed'),
    closed: () => report('closed'),
    unresponsive: () => report('unresponsive'),
  };
  return r;
}

async function launched(r: Rig, previous?: Launch): Promise<Launch> {
  const next = r.reported();
  const launch = new Launch(DEF, 1, r.ctx, r.owner, previous);
  await withDeadline(next, 'a report of the launch');
  return launch;
}

const CONNECTED = ['handshake', 'wrapTransport one', 'capabilities', 'setupClient', 'opened legacy', 'connected'];

test('each hook runs in its order for a launch, and its disposal disposes the plugin once', async () => {
  const r = newRig();
  const launch = await launched(r);
  assert.deepEqual(r.reports, ['connected']);
  assert.deepEqual(r.instances[0].hooks, CONNECTED);
  // What the plugin declared reached the server, and its transport wrapper saw the answers.
  const caps = r.servers[0].server.getClientCapabilities();
  assert.deepEqual(caps?.experimental, { probe: { instance: 1 } });
  assert.ok(r.instances[0].received > 0, 'messages came in through the wrapper');
  await withDeadline(launch.dispose(), 'the disposal');
  await withDeadline(launch.dispose(), 'a second disposal');
  assert.deepEqual(r.instances[0].hooks, [...CONNECTED, 'dispose']);
});

test('a connection that closes by itself disposes its plugins, once, before it is reported', async () => {
  const r = newRig();
  const launch = await launched(r);
  const next = r.reported();
  await r.servers[0].close();
  await withDeadline(next, 'the close report');
  assert.deepEqual(r.reports, ['connected', 'closed']);
  assert.deepEqual(r.instances[0].hooks, [...CONNECTED, 'dispose']);
  await withDeadline(launch.dispose(), 'the disposal');
  assert.equal(r.instances[0].hooks.filter((h) => h === 'dispose').length, 1);
});

test('a failed attempt tells its plugins, then disposes them', async () => {
  const r = newRig();
  r.failNext = true;
  const launch = await launched(r);
  assert.deepEqual(r.reports, ['failed']);
  assert.deepEqual(r.instances[0].hooks, [
    'handshake',
    'wrapTransport one',
    'capabilities',
    'setupClient',
    'connectFailed',
    'dispose',
  ]);
  await withDeadline(launch.dispose(), 'the disposal');
  assert.equal(r.instances[0].hooks.filter((h) => h === 'dispose').length, 1);
});

test('a second launch gets plugins of its own; the first one’s are disposed with it', async () => {
  const r = newRig();
  const first = await launched(r);
  const receivedByFirst = r.instances[0].received;
  const second = await launched(r, first);
  assert.equal(r.instances.length, 2, 'one plugin instance per launch');
  assert.deepEqual(r.instances[0].hooks, [...CONNECTED, 'dispose']);
  assert.deepEqual(r.instances[1].hooks, CONNECTED, 'fresh state: only the second launch’s hooks');
  assert.equal(r.instances[0].received, receivedByFirst, 'the first wrapper saw nothing of the second launch');
  assert.ok(r.instances[1].received > 0);
  assert.deepEqual(r.servers[1].server.getClientCapabilities()?.experimental, { probe: { instance: 2 } });
  await withDeadline(second.dispose(), 'the disposal');
  assert.deepEqual(r.instances[1].hooks, [...CONNECTED, 'dispose']);
});

test('a plugin whose disposal throws does not keep the others running; the error is logged', async () => {
  const ended: string[] = [];
  const throwing: LaunchPluginFactory = () => ({
    dispose: () => {
      throw new Error('boom');
    },
  });
  const r = newRig([throwing, () => ({ dispose: () => void ended.push('last') })]);
  const launch = await launched(r);
  await withDeadline(launch.dispose(), 'the disposal');
  // Reverse order: the last plugin ends first, the recorder (before the throwing one) still ends.
  assert.deepEqual(ended, ['last']);
  assert.equal(r.instances[0].hooks.at(-1), 'dispose');
  assert.ok((r.owner.log as MemoryLogger).lines.some((l) => /a launch plugin failed to end: boom/.test(l)));
});
