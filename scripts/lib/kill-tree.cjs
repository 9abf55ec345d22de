// Process-tree hygiene shared by scripts/start.mjs and the e2e harness (test/e2e/support/processes.ts).
// code-server starts a server process, extension hosts, pty hosts, file watchers and whatever MCP
// servers the extension launches (some in their own process group), so killing one pid is never
// enough: the whole tree is read from /proc and every member, and the root's group, is signalled.
// CommonJS so both an ES module script and the (CommonJS-compiled) TypeScript tests can import it.
'use strict';
const { readFileSync, readdirSync } = require('node:fs');

/** pid → parent pid for every process visible in /proc. */
function parentMap() {
  const map = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so split after the last ')'.
      map.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process exited while we were looking
    }
  }
  return map;
}

/** The pid itself and all of its live descendants, parents before children. */
function processTree(rootPid) {
  const parents = parentMap();
  const children = new Map();
  for (const [pid, ppid] of parents) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift();
    if (!parents.has(pid)) continue;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** False for a gone process and for a zombie (it still answers kill(0) but is dead for our purposes). */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Sends `sig` to process group `group` (when given) and to every pid; gone ones are skipped. */
function signalTree(pids, sig, group) {
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
 * still alive after `graceMs`. Resolves when none of them is alive (at most 2 s after the SIGKILL).
 */
async function killTree(rootPid, graceMs = 3000) {
  const known = new Set(processTree(rootPid));
  signalTree(known, 'SIGTERM', rootPid);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    // Children forked during shutdown join the set; orphans keep their pid in `known`.
    for (const pid of processTree(rootPid)) known.add(pid);
    if (![...known].some(isAlive)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const pid of processTree(rootPid)) known.add(pid);
  signalTree(known, 'SIGKILL', rootPid);
  // SIGKILL is not instant: wait (briefly) until the kernel has taken them, so callers see them gone.
  const killDeadline = Date.now() + 2000;
  while ([...known].some(isAlive) && Date.now() < killDeadline) await new Promise((r) => setTimeout(r, 20));
}

/** Synchronous last resort (process 'exit', a stop timer): SIGKILL the tree and its group at once. */
function killTreeSync(rootPid) {
  signalTree(processTree(rootPid), 'SIGKILL', rootPid);
}

module.exports = { processTree, isAlive, signalTree, killTree, killTreeSync };
