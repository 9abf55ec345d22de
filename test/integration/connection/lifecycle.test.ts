/**
 * Lifecycle of stdio servers through createHost: pools, timeouts and their env overrides, stale
 * attempts, definitions changing, list_changed, big tool lists. Real fixture processes throughout.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerChangeEvent } from '../../../src/core/host-api.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import {
  MemoryLogger,
  def,
  isAlive,
  killPids,
  pidsWithArg,
  startPortServer,
  stdioDef,
  tempDir,
  textOf,
  waitFor,
  type RunningServer,
} from './helpers.js';
import { pollUntil } from '../../support/wait.js';

const dir = tempDir('lifecycle');
const hosts: McpHost[] = [];
const servers: RunningServer[] = [];
const leftovers: number[] = [];

function newHost(env: Record<string, string> = {}): McpHost {
  const host = createHost({ logger: new MemoryLogger(), blobDir: dir, env });
  hosts.push(host);
  return host;
}

interface Rec {
  event: string;
  pid: number;
  at: number;
}

function readRecords(file: string): Rec[] {
  if (!fs.existsSync(file)) return [];
  const recs = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [event, pid, at] = l.split(' ');
      return { event, pid: Number(pid), at: Number(at) };
    });
  leftovers.push(...recs.map((r) => r.pid));
  return recs;
}

/** Most processes that were between "start" and "ready" at the same moment. */
function maxConcurrent(recs: Rec[]): number {
  const points = recs
    .filter((r) => r.event === 'start' || r.event === 'ready')
    .map((r) => ({ at: r.at, d: r.event === 'start' ? 1 : -1 }));
  // At equal times count the end first, so touching intervals do not overlap.
  points.sort((a, b) => a.at - b.at || a.d - b.d);
  let cur = 0;
  let max = 0;
  for (const p of points) {
    cur += p.d;
    max = Math.max(max, cur);
  }
  return max;
}

after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  await Promise.all(servers.map((s) => s.stop()));
  killPids(leftovers);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('connect pools', () => {
  test('at most 3 local servers connect at once, in parallel, one event per server as it settles', async () => {
    const rec = path.join(dir, 'pool3.rec');
    const host = newHost();
    const events: ServerChangeEvent[] = [];
    host.onDidChangeServer((e) => events.push(e));
    const names = Array.from({ length: 7 }, (_, i) => `p${i}`);
    host.setDefinitions(names.map((n) => stdioDef(n, ['--delay', '500', '--record', rec])));
    await host.whenSettled();
    for (const n of names) assert.equal(host.server(n)!.state.kind, 'connected');
    const recs = readRecords(rec);
    assert.equal(recs.filter((r) => r.event === 'ready').length, 7);
    const max = maxConcurrent(recs);
    assert.ok(max <= 3, `max concurrent connects ${max}`);
    assert.ok(max >= 2, `connects ran in parallel (max ${max})`);
    for (const n of names)
      assert.equal(events.filter((e) => e.name === n && e.snapshot?.state.kind === 'connected').length, 1);
  });

  test('MCP_SERVER_CONNECTION_BATCH_SIZE=1 connects one at a time; the remote pool runs beside it', async () => {
    const rec = path.join(dir, 'pool1.rec');
    const ws = await startPortServer('ws-server.mjs');
    servers.push(ws);
    const host = newHost({ MCP_SERVER_CONNECTION_BATCH_SIZE: '1' });
    const order: string[] = [];
    host.onDidChangeServer((e) => {
      if (e.snapshot?.state.kind === 'connected') order.push(e.name);
    });
    host.setDefinitions([
      stdioDef('slow1', ['--delay', '1500', '--record', rec]),
      stdioDef('slow2', ['--delay', '1500', '--record', rec]),
      stdioDef('slow3', ['--delay', '500', '--record', rec]),
      def('remote', { type: 'ws', url: ws.url.replace('http:', 'ws:') }),
    ]);
    await host.whenSettled();
    assert.equal(maxConcurrent(readRecords(rec)), 1);
    assert.deepEqual(
      order.filter((n) => n.startsWith('slow')),
      ['slow1', 'slow2', 'slow3'],
    );
    assert.ok(
      order.indexOf('remote') < order.indexOf('slow2'),
      `remote did not wait for the local pool: ${order.join(',')}`,
    );
  });
});

describe('timeouts', () => {
  test('per-server timeout: a slow starter fails with connect-timeout and its process is gone', async () => {
    const rec = path.join(dir, 'slow.rec');
    const host = newHost();
    const marker = `slow-${process.pid}-${Date.now()}`;
    host.setDefinitions([
      stdioDef('slow', ['--delay', '20000', '--record', rec, '--marker', marker], { timeout: 1500 }),
    ]);
    await host.whenSettled();
    assert.deepEqual(pidsWithArg(marker), [], 'no process of the timed-out attempt is left');
    const s = host.server('slow')!;
    assert.ok(
      s.state.kind === 'failed' && s.state.error.code === 'connect-timeout' && /1500 ms/.test(s.state.error.message),
      JSON.stringify(s.state),
    );
    const pids = readRecords(rec).map((r) => r.pid);
    for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} still running after the timeout`);
  });

  test('MCP_TIMEOUT applies to every server; a server entry timeout wins over it', async () => {
    const host = newHost({ MCP_TIMEOUT: '1500' });
    const marker = `envslow-${process.pid}-${Date.now()}`;
    host.setDefinitions([
      stdioDef('envslow', ['--delay', '20000', '--marker', marker]),
      stdioDef('patient', ['--delay', '2000'], { timeout: 60_000 }),
    ]);
    await host.whenSettled();
    assert.deepEqual(pidsWithArg(marker), []);
    const a = host.server('envslow')!.state;
    assert.ok(
      a.kind === 'failed' && a.error.code === 'connect-timeout' && /1500 ms/.test(a.error.message),
      JSON.stringify(a),
    );
    assert.equal(host.server('patient')!.state.kind, 'connected');
  });
});

describe('lifecycle', () => {
  test('stop during connect drops the attempt and its process', async () => {
    const rec = path.join(dir, 'stopconnect.rec');
    const host = newHost();
    host.setDefinitions([stdioDef('s', ['--delay', '4000', '--record', rec])]);
    // Wait until the process exists, then stop while it is still starting.
    await pollUntil(() => readRecords(rec).length > 0, 30_000);
    assert.equal(host.server('s')!.state.kind, 'pending');
    const kinds: string[] = [];
    host.onDidChangeServer((e) => kinds.push(e.snapshot?.state.kind ?? 'removed'));
    await host.stop('s');
    assert.equal(host.server('s')!.state.kind, 'disabled');
    for (const r of readRecords(rec)) assert.equal(isAlive(r.pid), false);
    await host.whenSettled();
    assert.ok(!kinds.includes('connected'), 'a stale attempt never reports connected');
  });

  test('stopping a server that waits for a pool slot returns at once; it never starts', async () => {
    const rec = path.join(dir, 'queued.rec');
    const host = newHost({ MCP_SERVER_CONNECTION_BATCH_SIZE: '1' });
    host.setDefinitions([stdioDef('first', ['--delay', '3000']), stdioDef('queued', ['--record', rec])]);
    await host.stop('queued');
    assert.equal(host.server('first')!.state.kind, 'pending', 'stop did not wait for the slot');
    assert.equal(host.server('queued')!.state.kind, 'disabled');
    await host.whenSettled();
    assert.equal(host.server('first')!.state.kind, 'connected');
    assert.deepEqual(readRecords(rec), [], 'the queued server never started');
  });

  test('restart during connect: only the new attempt counts', async () => {
    const rec = path.join(dir, 'restartconnect.rec');
    const host = newHost();
    host.setDefinitions([stdioDef('s', ['--delay', '1500', '--record', rec])]);
    await pollUntil(() => readRecords(rec).length > 0, 30_000);
    await host.restart('s');
    assert.equal(host.server('s')!.state.kind, 'connected');
    const starts = readRecords(rec).filter((r) => r.event === 'start');
    assert.equal(starts.length, 2);
    assert.equal(isAlive(starts[0].pid), false, 'first attempt process gone');
    assert.equal(host.pid('s'), starts[1].pid);
  });

  test('command not found: a clear error with the PATH hint; disabled servers do not start', async () => {
    const host = newHost();
    host.setDefinitions([
      def('nope', { type: 'stdio', command: 'definitely-not-installed-xyz', args: [] }),
      stdioDef('off', [], { disabled: true }),
    ]);
    await host.whenSettled();
    const s = host.server('nope')!.state;
    assert.ok(s.kind === 'failed' && s.error.code === 'command-not-found', JSON.stringify(s));
    assert.ok(
      s.kind === 'failed' &&
        /command not found: definitely-not-installed-xyz — is it installed and on PATH\?/.test(s.error.message),
    );
    assert.deepEqual(host.server('off')!.state, {
      kind: 'disabled',
      reason: 'config',
      message: 'Disabled in its config ("disabled": true).',
    });
    assert.equal(host.pid('off'), undefined);
  });

  test('setDefinitions: removed servers stop, changed ones restart, unchanged ones stay', async () => {
    const host = newHost();
    host.setDefinitions([stdioDef('a'), stdioDef('b'), stdioDef('c')]);
    await host.whenSettled();
    const [pa, pb, pc] = ['a', 'b', 'c'].map((n) => host.pid(n)!);
    const removed: string[] = [];
    host.onDidChangeServer((e) => {
      if (!e.snapshot) removed.push(e.name);
    });
    host.setDefinitions([stdioDef('a'), stdioDef('b', ['--garbage'])]);
    await host.whenSettled();
    assert.deepEqual(removed, ['c']);
    assert.deepEqual(
      host.servers().map((s) => s.name),
      ['a', 'b'],
    );
    assert.equal(host.pid('a'), pa);
    assert.notEqual(host.pid('b'), pb);
    assert.equal(host.server('b')!.state.kind, 'connected');
    // Removal kills in the background; give it the shutdown grace period.
    // No event tells when another process's child is gone: poll, with room for a loaded machine.
    await pollUntil(() => !isAlive(pb) && !isAlive(pc), 30_000);
    assert.equal(isAlive(pb), false);
    assert.equal(isAlive(pc), false);
  });

  test('list_changed refreshes the cached tools and fires a change', async () => {
    const host = newHost();
    host.setDefinitions([stdioDef('lc')]);
    await host.whenSettled();
    const changed = waitFor(host, 'lc', (s) => s.tools.some((t) => t.name === 'fresh_tool'));
    await host.callTool('lc', 'add_tool', { name: 'fresh_tool' });
    const s = await changed;
    assert.ok(s.tools.find((t) => t.qualifiedName === 'mcp__lc__fresh_tool'));
    assert.equal(textOf(await host.callTool('lc', 'fresh_tool', {})), 'fresh_tool');
  });

  test('a server with 2,000 tools', async () => {
    const host = newHost();
    host.setDefinitions([stdioDef('many', ['--tools', '2000'])]);
    await host.whenSettled();
    const s = host.server('many')!;
    assert.equal(s.state.kind, 'connected');
    const generated = s.tools.filter((t) => /^tool_\d+$/.test(t.name));
    assert.equal(generated.length, 2000);
    assert.equal(new Set(s.tools.map((t) => t.qualifiedName)).size, s.tools.length);
    assert.equal(textOf(await host.callTool('many', 'tool_1999', {})), 'tool_1999');
  });
});
