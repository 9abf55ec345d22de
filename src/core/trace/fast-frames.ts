/**
 * Which requests to a server took the gateway's forwarding fast path (connection/frame-channel.ts):
 * the channel marks each frame it sends, and the trace says so on the request's record and on the
 * record of its answer (`path: 'fast'`), and counts them beside the requests of the same methods
 * that took the SDK client's path (`path: 'full'`: the gateway's full path, and the host's own calls).
 */
/** On the frame itself: a symbol key, which JSON never writes (a WeakSet cost ~1 % of a forwarded call). */
const FAST = Symbol('mcp-host.fast-frame');

/** The methods the gateway forwards, on one path or the other: those the trace counts. */
export const FORWARDED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

export type FramePath = 'fast' | 'full';

/** Called by the frame channel on each frame before it is sent. */
export function markFastFrame(frame: object): void {
  (frame as { [FAST]?: true })[FAST] = true;
}

/** The path a request of a forwarded method took; undefined for every other message. */
export function framePath(msg: object): FramePath | undefined {
  const m = msg as { method?: unknown; id?: unknown };
  if (typeof m.method !== 'string' || m.id === undefined || !FORWARDED_METHODS.has(m.method)) return undefined;
  return FAST in msg ? 'fast' : 'full';
}

/** Requests of the forwarded methods sent to one server, by path. */
export interface PathCounts {
  fast: number;
  full: number;
}
