/** Driving calls: one after another, or with some in flight at once (calls.ts, ab-calls.ts). */

export type Call = () => Promise<unknown>;

/** The time of each of `n` calls made one after another (ms), appended to `out`. */
export async function sequential(call: Call, n: number, out: number[] = []): Promise<number[]> {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out;
}

/**
 * Milliseconds `n` calls take with `inFlight` of them outstanding at a time, and the CPU this
 * process spent meanwhile (µs; `sysUs` the kernel's part): the client side's own work, which load
 * elsewhere moves far less than it moves the time (only one side runs at a time, so it is that side's).
 */
export async function concurrent(
  call: Call,
  n: number,
  inFlight: number,
): Promise<{ ms: number; cpuUs: number; sysUs: number }> {
  let next = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await call();
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { ms, cpuUs: cpu.user + cpu.system, sysUs: cpu.system };
}
