/**
 * Every wait of the tests, each with a deadline: on a host's change events (`untilServer`), on a
 * promise (`withDeadline`), and the one poll, for what no event announces (a process gone, a
 * file another process writes, a count a server reports): `poll`, and `pollUntil` built on it.
 * Prefer an event where there is one.
 */
import type { ServerSnapshot } from '../../src/core/host-api.js';
import type { McpHost } from '../../src/core/host.js';

/**
 * Resolves with the first snapshot of `name` that satisfies `pred` (now, or at a later change event);
 * rejects after `timeoutMs` naming the server and its state then, so a broken test fails instead of hanging.
 */
export function untilServer(
  host: McpHost,
  name: string,
  pred: (s: ServerSnapshot) => boolean,
  timeoutMs = 30_000,
): Promise<ServerSnapshot> {
  const now = host.server(name);
  if (now && pred(now)) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(
        new Error(
          `timed out after ${timeoutMs} ms waiting for ${name}; state now ${JSON.stringify(host.server(name)?.state)}`,
        ),
      );
    }, timeoutMs);
    const sub = host.onDidChangeServer((e) => {
      if (e.name === name && e.snapshot && pred(e.snapshot)) {
        clearTimeout(timer);
        sub.dispose();
        resolve(e.snapshot);
      }
    });
  });
}

/** `promise`, or a rejection naming `what` once `timeoutMs` have passed without it settling. */
export function withDeadline<T>(promise: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Calls `probe` every `everyMs` until it returns a value (not undefined) or `timeoutMs` passes,
 * then rejects naming `what` (and the probe's last error, if it threw).
 */
export async function poll<T>(
  what: string,
  timeoutMs: number,
  probe: () => T | undefined | Promise<T | undefined>,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * `poll` for a condition: true once `cond` holds, false when `timeoutMs` passed first, for a test
 * that asserts on what is left after the wait (the processes still alive, the lines written).
 */
export function pollUntil(cond: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  return poll('a condition', timeoutMs, async () => ((await cond()) ? true : undefined), everyMs).catch(() => false);
}
