/** Waiting on a host's change events, never on time, and never without a deadline. */
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
