/**
 * The SDK's HTTP transports hand every fetch the transport's own signal, which lives as long as the
 * connection (2025-11-25 requests have no per-request one). Node's fetch (undici) adds an abort
 * listener to the signal of each request and removes it only once that request is garbage
 * collected, so the one signal gathers thousands of listeners between collections, and each
 * add and remove walks the whole list (Node's MaxListenersExceededWarning at 16 calls in flight).
 * Each fetch here gets a signal of its own that follows the transport's (followSignal: a weak
 * reference in the source, no listener): the listeners go with the request.
 */
import { followSignal } from '../follow-signal.js';

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export function withRequestSignal(f: FetchLike | undefined): FetchLike {
  const base = f ?? ((url, init) => fetch(url, init));
  return (url, init) => {
    const signal = init?.signal;
    return base(url, signal && !signal.aborted ? { ...init, signal: followSignal(signal) } : init);
  };
}
