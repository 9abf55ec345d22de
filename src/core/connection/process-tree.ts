/**
 * Kills a server's whole process tree. Servers started through npx, uvx or a shell have
 * grandchildren; killing only the direct child leaves orphans piling up per editor window.
 * POSIX: the server runs in its own process group (spawned `detached`), and /proc is walked for
 * descendants that left the group. A descendant that also left its parent (setsid, then the server
 * exited on its own: it now belongs to init) is found on Linux by the instance marker every server
 * gets in its environment (`INSTANCE_ENV`), read from /proc/<pid>/environ. macOS has no /proc: there
 * the group and the tree walk from a live root are all there is. Windows: `taskkill /T /F`, which
 * walks parent links too, so an orphan of a dead server is out of its reach.
 * scripts/start.mjs and the e2e harness use this file too (code-server's tree), so there is one kill.
 */
import * as fs from 'node:fs';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import { INSTANCE_ENV } from '../process-marks.js';

export { INSTANCE_ENV } from '../process-marks.js';

/** Which processes belong to one server instance: those whose environment carries `env`. */
export interface InstanceMarker {
  /** `NAME=value`, as it appears in /proc/<pid>/environ. */
  env: string;
  /** The root's start time in clock ticks since boot (/proc stat field 22): nothing older carries it. */
  since?: number;
}

export function newInstanceMarker(): { name: string; value: string } {
  return { name: INSTANCE_ENV, value: randomBytes(12).toString('hex') };
}

export interface KillTreeOptions {
  /** SIGINT first (default true); false starts at SIGTERM, for programs that treat SIGINT as a keypress. */
  interrupt?: boolean;
  /** Delay before SIGTERM after SIGINT. Default 100 ms. */
  termAfterMs?: number;
  /** Further delay before SIGKILL. Default 400 ms. */
  killAfterMs?: number;
  platform?: NodeJS.Platform;
  /** Also kills every process carrying this marker (Linux), with its descendants. */
  marker?: InstanceMarker;
}

interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  zombie: boolean;
  /** Clock ticks since boot (Linux only). */
  start?: number;
}

function readProcStat(pid: number): ProcInfo | undefined {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: parse after the last ')'.
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      ppid: Number(rest[1]),
      pgid: Number(rest[2]),
      zombie: rest[0] === 'Z' || rest[0] === 'X',
      start: Number(rest[19]),
    };
  } catch {
    return undefined;
  }
}

/** All processes (pid, ppid, pgid) from /proc, or from `ps` where there is no /proc (macOS). */
export function listProcesses(): ProcInfo[] {
  let entries: string[] | undefined;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    entries = undefined;
  }
  if (entries) {
    const out: ProcInfo[] = [];
    for (const e of entries) {
      if (!/^\d+$/.test(e)) continue;
      const info = readProcStat(Number(e));
      if (info) out.push(info);
    }
    return out;
  }
  try {
    const text = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' });
    return text
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f.length >= 4)
      .map((f) => ({ pid: Number(f[0]), ppid: Number(f[1]), pgid: Number(f[2]), zombie: f[3].startsWith('Z') }));
  } catch {
    return [];
  }
}

/** True while `pid` exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  const info = readProcStat(pid);
  return info ? !info.zombie : true;
}

/** The start time (clock ticks since boot) of `pid`, where /proc has it. */
export function startTimeOf(pid: number): number | undefined {
  return readProcStat(pid)?.start;
}

function carries(pid: number, env: string): boolean {
  let environ: Buffer;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false; // Gone, or another user's.
  }
  const at = environ.indexOf(env);
  return at !== -1 && (at === 0 || environ[at - 1] === 0) && (environ[at + env.length] ?? 0) === 0;
}

/** Live processes (not this one) whose environment carries `marker`; empty where there is no /proc. */
export function processesMarked(marker: InstanceMarker, all: ProcInfo[] = listProcesses()): number[] {
  const since = marker.since;
  return all
    .filter(
      (p) => !p.zombie && p.pid !== process.pid && (since === undefined || p.start === undefined || p.start >= since),
    )
    .filter((p) => carries(p.pid, marker.env))
    .map((p) => p.pid);
}

/**
 * `roots`, every live descendant of them, every member of the process groups `pgids`, and every
 * process carrying `marker` with its descendants.
 */
export function collectTree(
  roots: Iterable<number>,
  pgids: Iterable<number> = [],
  marker?: InstanceMarker,
): Set<number> {
  const all = listProcesses().filter((p) => !p.zombie);
  const children = new Map<number, number[]>();
  for (const p of all) {
    const list = children.get(p.ppid);
    if (list) list.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const result = new Set<number>();
  const stack = [...roots];
  const groups = new Set(pgids);
  for (const p of all) if (groups.has(p.pgid) && p.pid !== process.pid) stack.push(p.pid);
  if (marker) stack.push(...processesMarked(marker, all));
  while (stack.length) {
    const pid = stack.pop()!;
    if (result.has(pid) || pid === process.pid) continue;
    result.add(pid);
    for (const c of children.get(pid) ?? []) stack.push(c);
  }
  return result;
}

/** `rootPid` and its live descendants, parents before children. */
export function processTree(rootPid: number): number[] {
  const all = listProcesses().filter((p) => !p.zombie);
  const known = new Set(all.map((p) => p.pid));
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const out: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (!known.has(pid) || out.includes(pid)) continue;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** `sig` to the process group `pgid` (when given) and to every pid; gone ones are skipped. */
export function signalTree(pids: Iterable<number>, sig: NodeJS.Signals, pgid?: number): void {
  if (pgid !== undefined) {
    try {
      process.kill(-pgid, sig);
    } catch {
      // The group is gone already.
    }
  }
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // Gone already.
    }
  }
}

async function waitGone(pids: Set<number>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    for (const pid of pids) if (!isAlive(pid)) pids.delete(pid);
    if (pids.size === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, Math.min(20, Math.max(1, deadline - Date.now()))));
  }
}

/**
 * SIGINT to the group and every descendant, SIGTERM after `termAfterMs`, SIGKILL after
 * `killAfterMs` more; resolves when every process is gone (or after a last grace period).
 * `pgid` is the group the root leads (it was spawned detached), if any.
 */
export async function killTree(rootPid: number, opts: KillTreeOptions = {}): Promise<void> {
  const platform = opts.platform ?? process.platform;
  if (platform === 'win32') {
    await new Promise<void>((resolve) => {
      execFile('taskkill', ['/pid', String(rootPid), '/T', '/F'], { windowsHide: true }, () => resolve());
    });
    return;
  }
  const pgid = rootPid;
  await escalate(rootPid, opts);
  // A process the tree started while it was being signalled was in no collection: a server that
  // starts a detached helper when asked to stop, then exits, leaves it to init once the root is
  // gone. What still carries the group or the marker now is such a straggler (issue 30).
  for (let round = 0; round < 3; round++) {
    const late = collectTree([], [pgid], opts.marker);
    if (late.size === 0) return;
    signalTree(late, 'SIGKILL', pgid);
    await waitGone(late, 2000);
  }
}

async function escalate(rootPid: number, opts: KillTreeOptions): Promise<void> {
  const termAfter = opts.termAfterMs ?? 100;
  const killAfter = opts.killAfterMs ?? 400;
  const pgid = rootPid;
  const marker = opts.marker;
  // Collect before signalling: once the root dies its children are reparented and untraceable.
  let tree = collectTree([rootPid], [pgid], marker);
  if (opts.interrupt !== false) {
    signalTree(tree, 'SIGINT', pgid);
    if (await waitGone(new Set(tree), termAfter)) return;
    tree = new Set([...tree, ...collectTree([...tree].filter(isAlive), [pgid], marker)]);
  }
  signalTree(tree, 'SIGTERM', pgid);
  if (await waitGone(new Set(tree), killAfter)) return;
  tree = new Set([...tree, ...collectTree([...tree].filter(isAlive), [pgid], marker)]);
  signalTree(tree, 'SIGKILL', pgid);
  await waitGone(new Set(tree), 2000);
}

/** Synchronous last resort (process 'exit', a stop timer): SIGKILL the tree and its group at once. */
export function killTreeSync(rootPid: number, marker?: InstanceMarker): void {
  signalTree(collectTree([rootPid], [rootPid], marker), 'SIGKILL', rootPid);
}
