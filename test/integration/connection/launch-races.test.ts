/**
 * A call that arrives while its server is being stopped (issue 30). The chaos benchmark left crash
 * and exit servers running as children of the host: a restart or config edit took 0.5 s to kill a
 * tree that ignores SIGTERM, a call meanwhile started a process of its own, and the restart's
 * attempt then replaced that connection without closing it. Here the old transport's close is held
 * open (the slow kill) until the call has either been answered or is waiting for the stop.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Transport } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { MemoryLogger, isAlive, killPids, recordedPids, stdioDef, tempDir, textOf } from './helpers.js';
import { pollUntil, withDeadline } from '../../support/wait.js';

const dir = tempDir('launch-races');
const leftovers: number[] = [];

after(() => {
  killPids(leftovers);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Closing a transport waits for `open()` while the hold is on: a server whose tree is slow to die. */
function slowStops() {
  let release: (() => void) | undefined;
  let held: Promise<void> | undefined;
  const closes: Promise<void>[] = [];
  const wrap = (_def: ServerDefinition, inner: Transport): Transport =>
    new Proxy(inner, {
      get(target, prop) {
        if (prop === 'close')
          return () => {
            const done = (held ?? Promise.resolve()).then(() => target.close());
            closes.push(done);
            return done;
          };
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
      set: (target, prop, value) => Reflect.set(target, prop, value, target),
    });
  return {
    wrap,
    hold(): void {
      held = new Promise((r) => (release = r));
    },
    /** Lets the held closes finish; resolves once they have and what they resolve has run. */
    async open(): Promise<void> {
      held = undefined;
      release?.();
      await Promise.all(closes);
      await new Promise((r) => setImmediate(r));
    },
  };
}

interface Race {
  host: McpHost;
  log: MemoryLogger;
  rec: string;
  stops: ReturnType<typeof slowStops>;
}

async function connected(name: string): Promise<Race> {
  const log = new MemoryLogger();
  const stops = slowStops();
  const rec = path.join(dir, `${name}.rec`);
  const host = createHost({ logger: log, blobDir: dir, env: {}, wrapTransport: stops.wrap });
  host.setDefinitions([stdioDef(name, ['--record', rec])]);
  await host.whenSettled();
  assert.equal(host.server(name)?.state.kind, 'connected');
  return { host, log, rec, stops };
}

/**
 * Calls `pid` while the stop `begin` started is held open; opens it once the call was answered (a
 * process of its own: the bug) or waits for the stop (the fix). Resolves with the call's outcome.
 */
async function callDuringStop(
  r: Race,
  name: string,
  begin: () => Promise<void> | void,
): Promise<PromiseSettledResult<string>> {
  r.stops.hold();
  const stopped = begin();
  const call = r.host.callTool(name, 'pid', {}).then(textOf);
  const outcome = call.then(
    (value) => ({ status: 'fulfilled' as const, value }),
    (reason: unknown) => ({ status: 'rejected' as const, reason }),
  );
  await withDeadline(
    Promise.race([outcome, r.log.nextLine(/waiting for the (previous process to stop|stop under way)/)]),
    'answer, or wait for the stop',
  );
  // What runs once the old process is gone has run then: a restart's own attempt, say.
  await withDeadline(r.stops.open(), 'the old process to stop');
  await withDeadline(Promise.all([stopped, r.host.whenSettled()]), 'the stop or restart');
  return withDeadline(outcome, 'the call');
}

/**
 * The server processes (one per start) still alive once at most `expected` are, or after 5 s: a
 * process that is not our child sends no event when it dies, so its end is polled, with a deadline.
 */
async function aliveServers(rec: string, expected: number): Promise<number[]> {
  const pids = recordedPids(rec);
  leftovers.push(...pids);
  await pollUntil(() => pids.filter(isAlive).length <= expected, 5000, 20);
  return pids.filter(isAlive);
}

for (const [what, begin] of [
  ['a restart', (h: McpHost, n: string) => h.restart(n)],
  [
    'a config edit',
    (h: McpHost, n: string) => {
      h.setDefinitions([stdioDef(n, ['--record', path.join(dir, `${n}.rec`)], { env: { EDITED: '1' } })]);
    },
  ],
] as const) {
  test(`a call during ${what} is answered by the new process, and no other one is started`, async () => {
    const name = what === 'a restart' ? 'restarted' : 'edited';
    const r = await connected(name);
    try {
      const first = r.host.pid(name)!;
      const got = await callDuringStop(r, name, () => begin(r.host, name));
      assert.equal(got.status, 'fulfilled', `the call failed: ${got.status === 'rejected' ? String(got.reason) : ''}`);
      const now = r.host.pid(name);
      assert.ok(now !== undefined && now !== first, 'restarted');
      assert.equal(got.status === 'fulfilled' ? Number(got.value) : 0, now, 'answered by the process now connected');
      assert.deepEqual(await aliveServers(r.rec, 1), [now], 'only the connected process is alive');
      await r.host.dispose();
      assert.deepEqual(await aliveServers(r.rec, 0), [], 'nothing left after dispose');
    } finally {
      void r.stops.open();
      await r.host.dispose();
    }
  });
}

test('a call during a stop fails as stopped and starts nothing', async () => {
  const r = await connected('stopped');
  try {
    const got = await callDuringStop(r, 'stopped', () => r.host.stop('stopped'));
    assert.equal(got.status, 'rejected', 'the call was answered by a server that was being stopped');
    assert.match(String(got.status === 'rejected' ? got.reason : ''), /stopped/);
    assert.equal(r.host.server('stopped')?.state.kind, 'disabled');
    assert.deepEqual(await aliveServers(r.rec, 0), [], 'a process runs after the stop');
  } finally {
    void r.stops.open();
    await r.host.dispose();
  }
});
