/**
 * Ends this process's servers when this process dies without stopping them. A host that exits
 * normally stops every server's tree itself; one that is killed (the editor's extension host by
 * Ctrl+C to code-server's process group, a crash; `mcp-host serve` SIGKILLed) cannot, and a server
 * that does not exit when its stdin closes lives on: the official MCP Apps PDF server keeps an
 * fs.watch on each file it showed and ran on after Ctrl+C stopped code-server
 * (test/e2e/official-apps-exit.e2e.test.ts fails without this watcher). The kernel closes this
 * process's pipes however it dies, so a small watcher holding the read end of one learns of the
 * death and kills what this process started.
 *
 * Every server this process starts carries `OWNER_ENV=<value>` in its environment (processes
 * inherit their environment, so its whole tree does, however it detached). The watcher is `sh`
 * (about 1 MB, not a second Node), started on the first server's spawn, with a fixed minimal
 * environment (it must not carry the marker, nor run anything the server's config named). It
 * ignores the signals a group kill sends (its work starts only when its parent is gone), blocks
 * on its stdin, and on EOF sends SIGTERM to every process whose /proc/<pid>/environ carries the
 * marker, then SIGKILL to what is left a second later. Linux only: elsewhere there is no /proc to
 * find them by, and the host's own stop is all there is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';

import { OWNER_ENV } from '../process-marks.js';

export { OWNER_ENV } from '../process-marks.js';

/** The script; `$1` is the marker line (`NAME=value`), compared whole against each environ entry. */
const SCRIPT = `trap '' INT TERM HUP PIPE
cat >/dev/null 2>&1
marked() {
  for e in /proc/[0-9]*/environ; do
    if grep -qzxF -e "$1" "$e" 2>/dev/null; then p=\${e#/proc/}; echo "\${p%/environ}"; fi
  done
}
pids=$(marked "$1")
[ -z "$pids" ] && exit 0
kill -TERM $pids 2>/dev/null
sleep 1
pids=$(marked "$1")
[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
exit 0
`;

let owner: string | undefined;
let watcher: ChildProcess | undefined;

/** Where the watcher can run: Linux with /proc and a POSIX shell at a fixed path. */
function supported(): boolean {
  return process.platform === 'linux' && existsSync('/proc/self/environ') && existsSync('/bin/sh');
}

/**
 * The marker for a server's environment, starting the watcher on first use. Undefined where no
 * watcher can run (then nothing is added to the server's environment).
 */
export function ownerMarker(): { name: string; value: string } | undefined {
  if (!supported()) return undefined;
  owner ??= randomBytes(12).toString('hex');
  if (!watcher) startWatcher(`${OWNER_ENV}=${owner}`);
  return { name: OWNER_ENV, value: owner };
}

function startWatcher(markerLine: string): void {
  try {
    watcher = spawn('/bin/sh', ['-c', SCRIPT, 'mcp-host-reaper', markerLine], {
      // Its stdin is the pipe whose end tells it this process is gone; nothing is written to it.
      stdio: ['pipe', 'ignore', 'ignore'],
      // Its own group, so a signal to this process's group does not take it first.
      detached: true,
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    });
  } catch {
    watcher = undefined;
    return;
  }
  watcher.on('error', () => {
    watcher = undefined;
  });
  watcher.stdin?.on('error', () => {});
  // Neither it nor its pipe keeps this process alive.
  watcher.unref();
  (watcher.stdin as unknown as { unref?: () => void } | null)?.unref?.();
}

/** The watcher's pid, for tests. */
export function reaperPid(): number | undefined {
  return watcher?.pid;
}
