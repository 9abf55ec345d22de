/**
 * Writes to a stdio server whose pipe is full (issue 23): the sends held back wait together on one
 * set of the stream's listeners, go out once the server reads again, and fail saying how the server
 * ended when it dies instead. The fixture reads nothing until told (SIGUSR1) and exits on SIGUSR2.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioProcessTransport } from '../../../src/core/connection/stdio-transport.js';
import { withDeadline } from '../../support/wait.js';
import { MemoryLogger } from './helpers.js';

const SERVER = `
process.on('SIGUSR1', () => process.stdin.on('data', () => {}));
process.on('SIGUSR2', () => process.exit(3));
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'ready' }) + '\\n');
setInterval(() => {}, 1000);
`;

/** Each is the size of a whole pipe: after the first few, every send waits for the server to read. */
const SENDS = 40;
const big = (i: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'pad', params: { i, pad: 'x'.repeat(65_536) } });

let transport: StdioProcessTransport | undefined;
const warnings: Error[] = [];
const onWarning = (w: Error): void => void warnings.push(w);
process.on('warning', onWarning);

afterEach(async () => {
  await transport?.close();
  transport = undefined;
  warnings.length = 0;
});

async function started(): Promise<StdioProcessTransport> {
  const t = new StdioProcessTransport({ command: process.execPath, args: ['-e', SERVER], logger: new MemoryLogger() });
  transport = t;
  const ready = new Promise<void>((resolve) => (t.onmessage = () => resolve()));
  await t.start();
  await withDeadline(ready, 'ready line from the fixture');
  return t;
}

function track(sends: Promise<void>[]): { settled: () => number } {
  let n = 0;
  for (const s of sends)
    s.then(
      () => n++,
      () => n++,
    );
  return { settled: () => n };
}

test('sends behind a full pipe share one set of listeners and all go out once the server reads', async () => {
  const t = await started();
  const sends = Array.from({ length: SENDS }, (_, i) => t.send(big(i)));
  const progress = track(sends);
  await new Promise((r) => setImmediate(r));
  assert.ok(SENDS - progress.settled() >= SENDS / 2, `sends held back: ${SENDS - progress.settled()} of ${SENDS}`);
  process.kill(t.pid!, 'SIGUSR1');
  await withDeadline(Promise.all(sends), 'every held-back send to go out');
  const piled = warnings.filter((w) => w.name === 'MaxListenersExceededWarning');
  assert.deepEqual(
    piled.map((w) => w.message),
    [],
    'a listener per held-back send piles up on the pipe',
  );
});

test('a server that dies with sends held back: each send fails saying how it ended', async () => {
  const t = await started();
  const sends = Array.from({ length: 16 }, (_, i) => t.send(big(i)));
  const outcomes = Promise.allSettled(sends);
  process.kill(t.pid!, 'SIGUSR2');
  const results = await withDeadline(outcomes, 'the held-back sends to settle');
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  assert.ok(failed.length >= 8, `held-back sends that failed: ${failed.length} of ${results.length}`);
  for (const f of failed) assert.match(String((f.reason as Error).message), /exited with code 3/);
});

test('the sends of one turn of the event loop go to the pipe in one write', async () => {
  const t = await started();
  process.kill(t.pid!, 'SIGUSR1');
  // The pipe's own write calls: one per message, or one for all of those a turn queued (cork).
  const stdin = (t as unknown as { child: { stdin: { _write: unknown; _writev: unknown } } }).child.stdin;
  let writes = 0;
  for (const key of ['_write', '_writev'] as const) {
    const original = stdin[key] as ((...a: unknown[]) => unknown) | undefined;
    if (!original) continue;
    stdin[key] = function (this: unknown, ...a: unknown[]) {
      writes++;
      return original.apply(this, a);
    };
  }
  const small = (i: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'note', params: { i } });
  await withDeadline(Promise.all(Array.from({ length: 10 }, (_, i) => t.send(small(i)))), 'ten small sends');
  await new Promise((r) => setImmediate(r));
  assert.equal(writes, 1, `pipe writes for ten sends of one turn: ${writes}`);
  await withDeadline(t.send(small(10)), 'a send of a later turn');
  await new Promise((r) => setImmediate(r));
  assert.equal(writes, 2, 'a send of a later turn is a write of its own');
});
