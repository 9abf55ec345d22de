/**
 * Ends every process of a real Gemini CLI run, wherever it went. Gemini CLI 0.61.0's launcher
 * ignores SIGHUP, SIGINT and SIGTERM while its relaunched child runs, and the child's SIGHUP
 * handler waits on cleanups that need not finish; under a pty (script, VS Code's terminal) both
 * sit in a session of their own, outside the group a test runner kills. So each run carries a
 * marker in its environment, and everything carrying it gets SIGKILL: from the test (kill), and
 * from a detached reaper once the test's process is gone without cleaning up (a runner's timeout
 * or watchdog kills it outright: no finally, no exit hook).
 *
 * Run as a script: `node --import tsx gemini-reaper.ts <pid to watch> <marker>`.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { isAlive } from '../../../src/core/connection/process-tree.js';
import { pollUntil } from '../../support/wait.js';

export const MARKER_VAR = 'GEMINI_TEST_RUN';

/** Live processes whose environment has `GEMINI_TEST_RUN=<marker>`, however they were reparented. */
export function processesMarked(marker: string): number[] {
  const needle = `${MARKER_VAR}=${marker}\0`;
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${e}/environ`, 'latin1').includes(needle) && isAlive(Number(e))) out.push(Number(e));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return out;
}

export function killMarked(marker: string): void {
  for (const pid of processesMarked(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** SIGKILL to every marked process until none is left or `ms` have passed; the ones left. */
export async function reapMarked(marker: string, ms = 10_000): Promise<number[]> {
  let left: number[] = [];
  await pollUntil(() => {
    killMarked(marker);
    left = processesMarked(marker);
    return left.length === 0;
  }, ms);
  return left;
}

/** A detached reaper for `marker` that acts when this process is gone; stop it with SIGTERM (it reaps then too). */
export function startReaper(marker: string): { stop(): void } {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename, String(process.pid), marker], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return {
    stop: () => {
      try {
        child.kill('SIGTERM');
      } catch {
        // Gone already.
      }
    },
  };
}

if (require.main === module) {
  const [watched, marker] = process.argv.slice(2);
  const reap = (): void => void reapMarked(marker!).then(() => process.exit(0));
  process.once('SIGTERM', reap);
  const timer = setInterval(() => {
    if (isAlive(Number(watched))) return;
    clearInterval(timer);
    reap();
  }, 500);
}
