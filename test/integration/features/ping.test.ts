/**
 * Ping: a server that stops answering (its process frozen with SIGSTOP) is marked unresponsive
 * and reconnected; one that keeps answering stays connected through many pings.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConnectionState } from '../../../src/core/connection/state.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { MemoryLogger, isAlive, killPids, stdioDef, tempDir, waitFor } from '../connection/helpers.js';

const dir = tempDir('ping');
const hosts: McpHost[] = [];
const frozen: number[] = [];

after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  for (const pid of frozen) if (isAlive(pid)) process.kill(pid, 'SIGCONT');
  killPids(frozen);
});

test('a frozen server is marked unresponsive, then reconnected with a new process', async () => {
  const log = new MemoryLogger();
  const host = createHost({ logger: log, blobDir: dir, features: { pingIntervalMs: 400 } });
  hosts.push(host);
  const seen: ConnectionState[] = [];
  host.onDidChangeServer((e) => e.snapshot && seen.push(e.snapshot.state));
  host.setDefinitions([stdioDef('frozen')]);
  await waitFor(host, 'frozen', (s) => s.state.kind === 'connected');
  const pid = host.pid('frozen')!;
  frozen.push(pid);
  process.kill(pid, 'SIGSTOP');
  const failed = await waitFor(host, 'frozen', (s) => s.state.kind === 'failed');
  assert.equal(failed.state.kind === 'failed' && failed.state.error.code, 'unresponsive');
  assert.match(failed.state.kind === 'failed' ? failed.state.error.message : '', /did not answer a ping within 400 ms/);
  await waitFor(host, 'frozen', (s) => s.state.kind === 'connected');
  assert.notEqual(host.pid('frozen'), pid);
  assert.ok(seen.findIndex((s) => s.kind === 'failed') < seen.map((s) => s.kind).lastIndexOf('connected'));
  // The reconnect says why, so the tree shows "reconnecting: unresponsive …" rather than a bare "connecting".
  const reconnecting = seen.find((s) => s.kind === 'pending' && s.reason !== undefined);
  assert.match(
    reconnecting?.kind === 'pending' ? (reconnecting.reason ?? '') : '',
    /^unresponsive \(it did not answer a ping within 400 ms\)$/,
  );
});

/** A clock whose timers the test fires by hand; `next()` resolves when the next timer is set. */
function manualClock() {
  const waiting: ((fn: () => void) => void)[] = [];
  const pending: (() => void)[] = [];
  return {
    now: () => Date.now(),
    setTimeout(fn: () => void) {
      const w = waiting.shift();
      if (w) w(fn);
      else pending.push(fn);
      return { dispose() {} };
    },
    next(): Promise<() => void> {
      const p = pending.shift();
      return p ? Promise.resolve(p) : new Promise((r) => waiting.push(r));
    },
  };
}

test('a server that answers stays connected across ten ping rounds', async () => {
  const clock = manualClock();
  const serverLog = new MemoryLogger();
  const host = createHost({
    logger: new MemoryLogger(),
    serverLogger: () => serverLog,
    blobDir: dir,
    clock,
    features: { pingIntervalMs: 5000 },
  });
  hosts.push(host);
  host.setDefinitions([stdioDef('alive')]);
  await waitFor(host, 'alive', (s) => s.state.kind === 'connected');
  const pid = host.pid('alive');
  // The pinger sets its next timer only after the previous ping was answered, so each round is one answered ping.
  for (let i = 0; i < 10; i++) (await clock.next())();
  await clock.next();
  assert.equal(host.server('alive')!.state.kind, 'connected');
  assert.equal(host.pid('alive'), pid);
  assert.ok(!serverLog.lines.some((l) => /unresponsive/.test(l)));
});
