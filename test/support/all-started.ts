/**
 * Starts a test file's shared parts side by side: waits for every start, then throws the first
 * failure. What did start is assigned by then (each start assigns its own), so `after` stops it;
 * with `Promise.all` a part that failed under load left the others unassigned and running, and the
 * file's process never ended (cluster.test.ts: an 11-minute hang until the run's watchdog).
 */
export async function allStarted(starts: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(starts)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
