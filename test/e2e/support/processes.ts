// Process-tree hygiene for the e2e harness: the tree kill is core's (src/core/connection/process-tree.ts,
// also used by scripts/start.mjs); the watchdog and the per-run marker kill are the harness's own.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { killTree as killProcessTree } from '../../../src/core/connection/process-tree.js';
import { pollUntil } from '../../support/wait.js';

export { isAlive, killTreeSync, processTree } from '../../../src/core/connection/process-tree.js';

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

/**
 * Set in code-server's environment to the session's folder: every process the session starts
 * inherits it (extension hosts, MCP servers, terminals, what they start), however it detaches.
 */
export const SESSION_ENV = 'MCP_HOST_E2E_SESSION';

/** Pid and command line of every process whose environment holds `entry` (`NAME=value`). */
export function processesWithEnv(entry: string): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // A zombie's environ reads empty: it has exited and only waits for its parent.
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(entry)) continue;
      found.push({
        pid: Number(name),
        cmd: readFileSync(`/proc/${name}/cmdline`, 'latin1').replace(/\0/g, ' ').trim(),
      });
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * After code-server's tree is gone: waits up to `graceMs` for every other process of the session to
 * end, then SIGKILLs what is left and returns it. What outlives the tree kill left its parent
 * (setsid, a daemon) and would otherwise run on after the test.
 */
export async function reapSession(entry: string, graceMs: number): Promise<{ pid: number; cmd: string }[]> {
  let left = processesWithEnv(entry);
  await pollUntil(() => (left = processesWithEnv(entry)).length === 0, graceMs, 200);
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  return left;
}

/** The value of `name` in the environment of `pid`; undefined when it has none (or is gone). */
export function envValue(pid: number, name: string): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'latin1')
      .split('\0')
      .find((e) => e.startsWith(`${name}=`));
    return entry?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}
