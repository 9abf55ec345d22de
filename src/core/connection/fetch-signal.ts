/**
 * The SDK's HTTP transports hand every fetch the transport's own signal, which lives as long as the
 * connection (2025-11-25 requests have no per-request one). Node's fetch (undici) adds an abort
 * listener to the signal of each request and removes it only once that request is garbage
 * collected, so the one signal gathers thousands of listeners between collections, and each
 * add and remove walks the whole list (Node's MaxListenersExceededWarning at 16 calls in flight).
 * Each fetch here that comes with a signal seen before gets a signal of its own that follows it
 * (followSignal: a weak reference in the source, no listener): the listeners go with the request.
 * A signal seen for the first time is passed on as it is: on 2026-07-28 the SDK makes one per
 * request already, and following that one too cost an AbortController, a WeakRef and a finalizer
 * registration per call; a connection-long signal is followed from its second request on.
 */
import { followSignal } from '../follow-signal.js';

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export function withRequestSignal(f: FetchLike | undefined): FetchLike {
  const base = f ?? ((url, init) => fetch(url, init));
  const seen = new WeakSet<AbortSignal>();
  return (url, init) => {
    const signal = init?.signal;
    if (!signal || signal.aborted) return base(url, init);
    if (!seen.has(signal)) {
      seen.add(signal);
      return base(url, init);
    }
    return base(url, { ...init, signal: followSignal(signal) });
  };
}
