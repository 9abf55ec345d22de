// CPU priority of the phases of `npm test` (scripts/test-all.mjs, scripts/test.mjs). On Linux with
// autogroup scheduling (the default), the kernel shares the CPU between sessions first and weighs
// a process's own nice value only inside its session; the session's group takes a nice value of
// its own (/proc/<pid>/autogroup). The phases and the test runner start detached, each a session of
// its own, whose group starts at nice 0 whatever its parent's: so both values are set, and a
// detached child is given its parent's.
import { readFileSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

function autogroupNice(pid) {
  try {
    return Number(/nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Lowers the priority of `pid` (a process that has just started) and of its session's group to `nice`. */
export function lowerPriority(pid, nice) {
  if (!(nice > 0)) return;
  try {
    setPriority(pid, Math.max(getPriority(pid), nice));
  } catch {
    // It has ended.
  }
  if (process.platform !== 'linux') return;
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(Math.max(autogroupNice(pid), nice)));
  } catch {
    // No autogroup in this kernel.
  }
}

/** Gives a detached child (a new session) the lower of this process's priorities. */
export function keepPriority(pid) {
  lowerPriority(pid, Math.max(autogroupNice(process.pid), getPriority()));
}
