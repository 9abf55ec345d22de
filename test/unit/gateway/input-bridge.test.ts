import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { inputRequired, isInputRequiredResult } from '@modelcontextprotocol/server';
import { ParkedCalls } from '../../../src/core/gateway/input-bridge.js';

const question = inputRequired.elicit({
  mode: 'form',
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
});

test('a question mid-call parks the call; the retry answers it and gets the result', async () => {
  const parked = new ParkedCalls();
  const first = await parked.run({ signal: new AbortController().signal }, async (ask) => {
    const a = (await ask(question)) as { content: { name: string } };
    const b = (await ask(question)) as { content: { name: string } };
    return `${a.content.name} ${b.content.name}`;
  });
  assert.ok(isInputRequiredResult(first));
  assert.deepEqual(Object.keys(first.inputRequests ?? {}), ['q1']);
  assert.equal(parked.size(), 1);
  const second = await parked.run(
    {
      signal: new AbortController().signal,
      requestState: first.requestState!,
      inputResponses: { q1: { action: 'accept', content: { name: 'Ada' } } },
    },
    () => Promise.reject(new Error('a resumed call does not start again')),
  );
  assert.ok(isInputRequiredResult(second));
  assert.notEqual(second.requestState, first.requestState);
  const done = await parked.run(
    {
      signal: new AbortController().signal,
      requestState: second.requestState!,
      inputResponses: { q2: { action: 'accept', content: { name: 'Lovelace' } } },
    },
    () => Promise.reject(new Error('unused')),
  );
  assert.equal(done, 'Ada Lovelace');
  assert.equal(parked.size(), 0);
});

test('a requestState is used once; a forged or spent one is refused', async () => {
  const parked = new ParkedCalls();
  const r = await parked.run({ signal: new AbortController().signal }, (ask) => ask(question));
  assert.ok(isInputRequiredResult(r));
  const resume = { signal: new AbortController().signal, requestState: r.requestState!, inputResponses: { q1: 1 } };
  assert.equal(await parked.run(resume, () => Promise.resolve(0)), 1);
  await assert.rejects(
    parked.run(resume, () => Promise.resolve(0)),
    /unknown or expired requestState/,
  );
  await assert.rejects(
    parked.run({ ...resume, requestState: 'forged' }, () => Promise.resolve(0)),
    /unknown or expired requestState/,
  );
});

test('a parked call nobody resumes is aborted after the deadline', async () => {
  const parked = new ParkedCalls({ resumeTimeoutMs: 50 });
  let upstream: AbortSignal | undefined;
  const r = await parked.run({ signal: new AbortController().signal }, (ask, signal) => {
    upstream = signal;
    return ask(question, signal);
  });
  assert.ok(isInputRequiredResult(r));
  if (!upstream!.aborted) await once(upstream!, 'abort');
  assert.equal(parked.size(), 0);
});

test('the agent cancelling the exchange aborts the upstream call', async () => {
  const parked = new ParkedCalls();
  const ac = new AbortController();
  let upstream: AbortSignal | undefined;
  const run = parked.run(
    { signal: ac.signal },
    (_ask, signal) =>
      new Promise((_resolve, reject) => {
        upstream = signal;
        signal.addEventListener('abort', () => reject(signal.reason as Error));
      }),
  );
  ac.abort();
  await assert.rejects(run, /cancelled by the agent/);
  assert.equal(upstream!.aborted, true);
});

test('a requestState is bound to the agent it was issued to: another agent is refused and the call stays parked', async () => {
  const parked = new ParkedCalls();
  const first = await parked.run({ signal: new AbortController().signal, owner: 'agent-a' }, async (ask) => {
    const a = (await ask(question)) as { content: { name: string } };
    return a.content.name;
  });
  assert.ok(isInputRequiredResult(first));
  const answer = { q1: { action: 'accept', content: { name: 'Mallory' } } };
  await assert.rejects(
    parked.run(
      {
        signal: new AbortController().signal,
        requestState: first.requestState!,
        inputResponses: answer,
        owner: 'agent-b',
      },
      () => Promise.reject(new Error('unused')),
    ),
    /unknown or expired requestState/,
  );
  assert.equal(parked.size(), 1);
  const done = await parked.run(
    {
      signal: new AbortController().signal,
      requestState: first.requestState!,
      inputResponses: { q1: { action: 'accept', content: { name: 'Ada' } } },
      owner: 'agent-a',
    },
    () => Promise.reject(new Error('unused')),
  );
  assert.equal(done, 'Ada');
});
