/**
 * A call's timeout covers its wait for the server to connect (issue 30): a call to a server that
 * hangs in its opening exchange ends at the call's timeout, not at the connect timeout, and says
 * it was waiting for the connection; a connection that came late leaves the request the rest.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Transport } from '@modelcontextprotocol/client';
import { createHost, type McpHost } from '../../../src/core/host.js';
import type { HostOptions } from '../../../src/core/host-api.js';
import { HostError } from '../../../src/core/errors.js';
import { MemoryLogger, def, tempDir } from './helpers.js';
import { MODERN } from './era-hosts.js';
import { poll, withDeadline } from '../../support/wait.js';

const dir = tempDir('connect-wait');
const hosts: McpHost[] = [];

after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Far beyond every call timeout below: without the fix a call waits this long. */
const CONNECT_MS = 30_000;

function newHost(o: Partial<HostOptions> = {}): McpHost {
  const host = createHost({
    logger: new MemoryLogger(),
    blobDir: dir,
    env: {},
    timeouts: { connectMs: CONNECT_MS, toolCallMs: 60_000 },
    ...o,
  });
  hosts.push(host);
  return host;
}

/** Resolves once the fixture has recorded the host's first opening message (it is connecting). */
async function opened(rec: string): Promise<string> {
  return poll(
    'opening message at the fixture',
    30_000,
    () => {
      const seen = fs.existsSync(rec) ? fs.readFileSync(rec, 'utf8').trim() : '';
      return seen ? seen.split('\n')[0] : undefined;
    },
    20,
  );
}

/** The call's rejection, or a failure if it was answered. */
async function rejection(p: Promise<unknown>): Promise<HostError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof HostError, String(err));
    return err;
  }
  assert.fail('the call was answered');
}

for (const [era, eraNegotiation, first] of [
  ['2026-07-28 probe', 'auto', 'server/discover'],
  ['2025-11-25', 'legacy', 'initialize'],
] as const) {
  test(`${era}: a call to a server that hangs while connecting ends at its own timeout`, async () => {
    const name = `hang-${eraNegotiation}`;
    const rec = path.join(dir, `${name}.rec`);
    const host = newHost({ eraNegotiation });
    host.setDefinitions([
      def(name, { type: 'stdio', command: process.execPath, args: [MODERN, '--hang-at-connect', '--record', rec] }),
    ]);
    assert.equal(await opened(rec), first);
    const t0 = performance.now();
    const err = await withDeadline(
      rejection(host.callTool(name, 'echo', { text: 'x' }, { timeoutMs: 1_000 })),
      'end of the call',
      10_000,
    );
    const ms = performance.now() - t0;
    assert.equal(err.code, 'request-timeout');
    assert.match(err.message, /tool echo on hang-\w+ timed out after 1000 ms waiting for the server to connect/);
    assert.ok(ms >= 990, `ended after ${ms.toFixed(0)} ms, before its timeout`);
    // The attempt itself goes on, bounded by the connect timeout, for the calls after this one.
    assert.equal(host.server(name)?.state.kind, 'pending');
  });
}

test('a call cancelled while it waits for the connection ends at once', async () => {
  const name = 'hang-cancel';
  const rec = path.join(dir, `${name}.rec`);
  const host = newHost();
  host.setDefinitions([
    def(name, { type: 'stdio', command: process.execPath, args: [MODERN, '--hang-at-connect', '--record', rec] }),
  ]);
  await opened(rec);
  const ac = new AbortController();
  const call = rejection(host.callTool(name, 'echo', { text: 'x' }, { signal: ac.signal }));
  ac.abort();
  const err = await withDeadline(call, 'end of the cancelled call', 10_000);
  assert.equal(err.code, 'cancelled');
  assert.match(err.message, /cancelled while waiting for hang-cancel to connect/);
});

test('a connection that came late leaves the request only the rest of the timeout', async () => {
  const HOLD_MS = 3_000;
  const TIMEOUT_MS = 8_000;
  // The first transport starts HOLD_MS late (a server slow to come up); `wait` then runs until cancelled.
  let held = false;
  const wrapTransport = (_d: unknown, inner: Transport): Transport =>
    new Proxy(inner, {
      get(target, prop) {
        if (prop === 'start' && !held) {
          held = true;
          return async () => {
            await new Promise((r) => setTimeout(r, HOLD_MS));
            await target.start();
          };
        }
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
      set: (target, prop, value) => Reflect.set(target, prop, value, target),
    });
  const host = newHost({ wrapTransport });
  host.setDefinitions([def('late', { type: 'stdio', command: process.execPath, args: [MODERN] })]);
  const t0 = performance.now();
  const err = await withDeadline(
    rejection(host.callTool('late', 'wait', {}, { timeoutMs: TIMEOUT_MS })),
    'end of the call',
    30_000,
  );
  const ms = performance.now() - t0;
  const connectMs =
    host.server('late')?.state.kind === 'connected'
      ? (host.server('late')?.state as { connectMs: number }).connectMs
      : NaN;
  // The request's own timeout (the connection came in time), naming the call's whole timeout.
  assert.equal(err.code, 'request-timeout', err.message);
  assert.match(err.message, /^tool wait on late timed out after 8000 ms$/);
  assert.ok(connectMs >= HOLD_MS, `connected in ${connectMs} ms`);
  // The whole call within its timeout (with slack for a loaded machine), not connect + timeout.
  assert.ok(ms < TIMEOUT_MS + 2_000, `the call took ${ms.toFixed(0)} ms (connect ${connectMs} ms)`);
});
