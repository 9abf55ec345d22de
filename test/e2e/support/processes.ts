// Process-tree hygiene for the e2e harness: the tree kill is core's (src/core/connection/process-tree.ts,
// also used by scripts/start.mjs); the watchdog and the per-run marker kill are the harness's own.
import { execFileSync, spawn } from 'node:child_process';
import { killTree as killProcessTree } from '../../../src/core/connection/process-tree.js';

export { killTreeSync, processTree } from '../../../src/core/connection/process-tree.js';

/** code-server gets SIGTERM and 3 s to close its extension hosts before the SIGKILL. */
export function killTree(rootPid: number): Promise<void> {
  return killProcessTree(rootPid, { interrupt: false, killAfterMs: 3000 });
}

/**
 * A tiny detached shell that kills process group `pgid` and removes `dir` once this Node process
 * is gone, even if it died by SIGKILL (no exit handler runs then). Returns its pid so a clean
 * dispose can stop it.
 */
export function startWatchdog(pgid: number, dir: string): number | undefined {
  const script =
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -KILL -"$2" 2>/dev/null; sleep 1; rm -rf -- "$3"; exit 0';
  const child = spawn('sh', ['-c', script, 'mcp-host-e2e-watchdog', String(process.pid), String(pgid), dir], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return child.pid;
}

/** Pids of processes whose command line contains `mark` (servers in the e2e tests carry a per-run marker argument). */
export function pidsWith(mark: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', mark], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** SIGKILLs every process carrying `mark`: whatever happened, no server of a run may outlive its VS Code. */
export function killMarked(mark: string): void {
  for (const pid of pidsWith(mark)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}
