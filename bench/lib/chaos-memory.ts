/**
 * A settled memory reading of this process (issue 30): taken with the calls paused and drained,
 * after full collections, repeated until two readings in a row agree. One reading right after a
 * collection caught the allocator still handing pages back (RSS 434, 313, 251, 243, 243 MB in five
 * samples of one window while the heap stayed at 67 MB), so a median measured where that was.
 */
import { readFileSync } from 'node:fs';

export interface MemoryReading {
  heap: number;
  /** Memory of JS objects outside the V8 heap (Buffers, ArrayBuffers), `arrayBuffers` included. */
  external: number;
  arrayBuffers: number;
  rss: number;
  /** Anonymous resident memory (the heaps, malloc arenas, thread stacks) from smaps_rollup. */
  anonymous: number;
  /** Readings taken until two agreed. */
  tries: number;
}

const MB = 1024 * 1024;
/** Two readings agree when RSS moved less than this and the heap less than a fifth of it. */
const RSS_AGREE_MB = 2;
const MAX_TRIES = 12;
const PAUSE_MS = 250;

function anonymousMb(): number {
  try {
    const m = /^Anonymous:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'latin1'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function read(tries: number): MemoryReading {
  const m = process.memoryUsage();
  return {
    heap: m.heapUsed / MB,
    external: m.external / MB,
    arrayBuffers: m.arrayBuffers / MB,
    rss: m.rss / MB,
    anonymous: anonymousMb(),
    tries,
  };
}

/** Collects, waits a moment, reads; until two readings in a row agree (at most MAX_TRIES). */
export async function settledMemory(): Promise<MemoryReading> {
  let prev: MemoryReading | undefined;
  for (let i = 1; ; i++) {
    globalThis.gc?.();
    globalThis.gc?.();
    // V8 and the allocator give pages back in the background after a collection.
    await new Promise((r) => setTimeout(r, PAUSE_MS));
    const cur = read(i);
    const agrees =
      prev !== undefined &&
      Math.abs(cur.rss - prev.rss) < RSS_AGREE_MB &&
      Math.abs(cur.heap - prev.heap) < RSS_AGREE_MB / 5;
    if (agrees || i >= MAX_TRIES) return cur;
    prev = cur;
  }
}

export function describeReading(r: MemoryReading): string {
  return (
    `heap ${r.heap.toFixed(1)}, external ${r.external.toFixed(1)} (arrayBuffers ${r.arrayBuffers.toFixed(1)}), ` +
    `rss ${r.rss.toFixed(0)} (anonymous ${r.anonymous.toFixed(0)}) MB after ${r.tries} readings`
  );
}
