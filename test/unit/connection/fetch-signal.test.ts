// Each fetch of an HTTP transport gets its own signal (connection/fetch-signal.ts): the transport's
// long-lived one gathers no listener per request, and aborting it still aborts every request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { withRequestSignal } from '../../../src/core/connection/fetch-signal.js';

/** Like Node's fetch: listens on the request's signal and keeps the listener (undici drops it at GC). */
function listeningFetch(seen: AbortSignal[]) {
  return (_url: string | URL, init?: RequestInit): Promise<Response> => {
    const signal = init!.signal!;
    signal.addEventListener('abort', () => {});
    seen.push(signal);
    return Promise.resolve(new Response('{}'));
  };
}

test('the transport signal gathers no listener per request, and its abort reaches every request', async () => {
  const transport = new AbortController();
  const seen: AbortSignal[] = [];
  const f = withRequestSignal(listeningFetch(seen));
  for (let i = 0; i < 100; i++) await f('http://127.0.0.1/mcp', { method: 'POST', signal: transport.signal });
  // The first request's own and followSignal's one, whatever the number of requests.
  assert.ok(getEventListeners(transport.signal, 'abort').length <= 2);
  assert.equal(new Set(seen).size, 100);
  transport.abort(new Error('closed'));
  assert.ok(seen.every((s) => s.aborted && (s.reason as Error).message === 'closed'));
});

test('a signal of one request (2026-07-28: the SDK makes one per request) is passed on as it is', async () => {
  const seen: AbortSignal[] = [];
  const f = withRequestSignal(listeningFetch(seen));
  const own = Array.from({ length: 3 }, () => new AbortController().signal);
  for (const signal of own) await f('http://127.0.0.1/mcp', { method: 'POST', signal });
  assert.deepEqual(seen, own);
});

test('a request without a signal, or with an aborted one, is passed on as it is', async () => {
  const inits: (RequestInit | undefined)[] = [];
  const f = withRequestSignal((_u, init) => {
    inits.push(init);
    return Promise.resolve(new Response(''));
  });
  await f('http://127.0.0.1/', undefined);
  const aborted = AbortSignal.abort();
  await f('http://127.0.0.1/', { signal: aborted });
  assert.equal(inits[0], undefined);
  assert.equal(inits[1]!.signal, aborted);
});
