/**
 * The one poll with a deadline, for what no event announces (a process gone, a file written by
 * another process, a page's text). Prefer an event (test/support/wait.ts) where there is one.
 */

/** Calls `probe` every `everyMs` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function poll<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
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
