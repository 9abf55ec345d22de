import { execFileSync } from 'node:child_process';
// Process-tree hygiene for the e2e harness. code-server starts a server process, extension
// hosts, pty hosts, file watchers and whatever MCP servers the extension launches (some of them
// in their own process group), so killing one pid is never enough: we snapshot the whole tree
// from /proc and signal every member.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** pid → parent pid for every process visible in /proc. */
function parentMap(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so split after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      map.set(Number(name), Number(rest[1]));
    } catch {
      // the process exited while we were looking
    }
  }
  return map;
}

/** The pid itself and all of its descendants, parents before children. */
export function processTree(rootPid: number): number[] {
  const parents = parentMap();
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (!parents.has(pid) && pid !== rootPid) continue;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out.filter((pid) => parents.has(pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers kill(0); it is dead for our purposes.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function signal(pids: Iterable<number>, sig: NodeJS.Signals, group?: number): void {
  if (group !== undefined) {
    try {
      process.kill(-group, sig);
    } catch {
      // group already gone
    }
  }
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

/**
 * Stops a process, its process group and every descendant: SIGTERM, then SIGKILL for whatever is
 * still alive after `graceMs`. Resolves when none of them is alive (or after a last SIGKILL).
 */
export async function killTree(rootPid: number, graceMs = 3000): Promise<void> {
  const known = new Set(processTree(rootPid));
  signal(known, 'SIGTERM', rootPid);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    // Children forked during shutdown join the set; orphans keep their pid in `known`.
    for (const pid of processTree(rootPid)) known.add(pid);
    if (![...known].some(isAlive)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const pid of processTree(rootPid)) known.add(pid);
  signal(known, 'SIGKILL', rootPid);
}

/** Synchronous last resort for `process.on('exit')`: SIGKILL the tree and its group at once. */
export function killTreeSync(rootPid: number): void {
  signal(processTree(rootPid), 'SIGKILL', rootPid);
}

/**
 * A tiny detached shell that kills process group `pgid` and removes `dir` once this Node process
 * is gone, even if it died by SIGKILL (no exit handler runs then). Returns its pid so a clean
 * dispose can stop it.
 */
export function startWatchdog(pgid: number, dir: string): number | undefined {
  const script = 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -KILL -"$2" 2>/dev/null; sleep 1; rm -rf -- "$3"; exit 0';
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
