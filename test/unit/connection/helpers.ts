/** Shared by the manager tests: wait on the host's change events, never on time. */
import type { ServerSnapshot } from '../../../src/core/host-api.js';
import type { ConnectionManager } from '../../../src/core/host.js';

/** Resolves with the first snapshot of `name` that satisfies `pred` (now, or at a later change event). */
export function until(
  host: ConnectionManager,
  name: string,
  pred: (s: ServerSnapshot) => boolean,
): Promise<ServerSnapshot> {
  const now = host.server(name);
  if (now && pred(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const sub = host.onDidChangeServer((e) => {
      if (e.name === name && e.snapshot && pred(e.snapshot)) {
        sub.dispose();
        resolve(e.snapshot);
      }
    });
  });
}
