import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { InFlightCalls } from '../../../src/core/connection/in-flight.js';

test('the callers of the requests in flight, oldest first, each until its request ends', () => {
  const calls = new InFlightCalls();
  const a = { agent: 'a' };
  const b = { agent: 'b' };
  assert.deepEqual(calls.relatedTo(undefined), { callers: [] });
  const one = calls.begin(a);
  const editor = calls.begin(undefined);
  const two = calls.begin(b);
  assert.deepEqual(calls.relatedTo(undefined).callers, [a, undefined, b]);
  one.dispose();
  one.dispose();
  assert.deepEqual(calls.relatedTo(undefined).callers, [undefined, b]);
  editor.dispose();
  two.dispose();
  assert.deepEqual(calls.relatedTo(undefined).callers, []);
});

test('a question naming a task of one of the requests belongs to that request; unknown tasks name nobody', () => {
  const calls = new InFlightCalls();
  const a = { agent: 'a' };
  const b = { agent: 'b' };
  calls.begin(a);
  const bCall = calls.begin(b);
  calls.tagTask(b, 'task-b');
  const meta = (taskId: unknown): Record<string, unknown> => ({ [RELATED_TASK_META_KEY]: { taskId } });
  assert.deepEqual(calls.relatedTo(meta('task-b')), { callers: [a, b], owner: { origin: b, via: 'task' } });
  assert.deepEqual(calls.relatedTo(meta('task-zzz')), { callers: [a, b] });
  assert.deepEqual(calls.relatedTo(meta(42)), { callers: [a, b] });
  bCall.dispose();
  assert.deepEqual(calls.relatedTo(meta('task-b')), { callers: [a] });
});

test('a question handled in the context of a call’s run() belongs to that request, on that server only, while it is in flight', async () => {
  const calls = new InFlightCalls();
  const otherServer = new InFlightCalls();
  const a = { agent: 'a' };
  const b = { agent: 'b' };
  const aCall = calls.begin(a);
  calls.begin(b);
  otherServer.begin(a);
  // A message arriving later on the request's stream runs in a continuation of its context.
  let later: () => ReturnType<InFlightCalls['relatedTo']> = () => ({ callers: [] });
  const seen = await aCall.run(
    async () => {
      await Promise.resolve();
      later = () => calls.relatedTo(undefined);
      return { mine: calls.relatedTo(undefined), other: otherServer.relatedTo(undefined) };
    },
    undefined,
    true,
  );
  assert.deepEqual(seen.mine, { callers: [a, b], owner: { origin: a, via: 'stream' } });
  assert.deepEqual(seen.other, { callers: [a] });
  // Outside the context: only the callers.
  assert.deepEqual(calls.relatedTo(undefined), { callers: [a, b] });
  aCall.dispose();
  // A stale context (the request has ended) names nobody.
  await aCall.run(async () => assert.deepEqual(later(), { callers: [b] }), undefined, true);
});

test('the stream owner is the very call whose context a question arrives in: another call of the same origin does not stand in for an ended one', async () => {
  const calls = new InFlightCalls();
  const a = { agent: 'a' };
  const first = calls.begin(a);
  const second = calls.begin(a);
  first.dispose();
  await first.run(async () => assert.deepEqual(calls.relatedTo(undefined), { callers: [a] }), undefined, true);
  await second.run(
    async () => assert.deepEqual(calls.relatedTo(undefined), { callers: [a], owner: { origin: a, via: 'stream' } }),
    undefined,
    true,
  );
});

test('over a transport that links no question to its request (stdio, SSE, WebSocket) no context is set: questions name only the callers', async () => {
  const calls = new InFlightCalls();
  const a = { agent: 'a' };
  const call = calls.begin(a);
  const seen = await call.run(async () => calls.relatedTo(undefined), undefined, false);
  assert.deepEqual(seen, { callers: [a] });
  call.dispose();
});
