// Every server ends with its window (issue 42 item 10): the three official MCP Apps servers run in
// MCP Host, the PDF viewer shows the workspace PDF (so server-pdf holds an fs.watch on the file and
// no longer exits when its stdin closes), then code-server is stopped the way a person stops it,
// and within 8 s no process of any server is left. Each server's processes are found by its
// instance marker (MCP_HOST_SERVER_INSTANCE), read from the server itself: servers get a minimal
// environment, without the harness's session marker.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { INSTANCE_ENV, OWNER_ENV } from '../../src/core/process-marks.js';
import { extensionHostLogFiles, killMarked, pidsWith, poll, startVSCode, stepRunner } from './harness.js';
import { envValue, isAlive, processTree, processesWithEnv } from './support/processes.js';
import { connectThree, officialAppsWorkspace, openPdf } from './support/official-apps.js';

/** How long a stopped window's servers may take to end (VS Code gives extensions 5 s to deactivate). */
const DEADLINE_MS = 8000;
const APPS = ['server-pdf', 'server-basic-vanillajs', 'server-budget-allocator'];

interface Stop {
  name: string;
  /** Stops code-server as a person would, given its pid (leader of its own group). */
  run(pid: number): void;
}

const STOPS: Stop[] = [
  // `kill <pid>`, a service manager or `docker stop` signalling the main process only: code-server
  // ends its server process, and the extension host, finding its parent gone, deactivates extensions.
  { name: 'SIGTERM to the code-server process', run: (pid) => process.kill(pid, 'SIGTERM') },
  // Ctrl+C in the terminal that runs it: the terminal signals the whole foreground group, which
  // holds code-server, its server process and the extension host, which dies at once without
  // deactivating anything (the MCP servers have groups of their own and get no signal).
  { name: 'Ctrl+C (SIGINT to its process group)', run: (pid) => process.kill(-pid, 'SIGINT') },
  // Closing that terminal: the same group gets SIGHUP, which none of them handles.
  { name: 'closing its terminal (SIGHUP to its process group)', run: (pid) => process.kill(-pid, 'SIGHUP') },
];

/** What the extension host logged about its end, for the report. */
function exthostEnd(userDataDir: string): string[] {
  return extensionHostLogFiles(userDataDir).flatMap((p) =>
    readFileSync(p, 'utf8')
      .split('\n')
      .filter((l) => /terminat|exiting with code|parent process/i.test(l)),
  );
}

/** The three app servers: pid and command line. */
function appServers(mark: string): { pid: number; cmd: string }[] {
  const servers = pidsWith(mark)
    .map((pid) => ({ pid, cmd: readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ') }))
    .filter((p) => APPS.some((a) => p.cmd.includes(`/${a}/dist/index.js`)));
  for (const app of APPS)
    assert.ok(
      servers.some((p) => p.cmd.includes(`/${app}/`)),
      `${app} runs`,
    );
  return servers;
}

/** `NAME=value` of each server's instance marker: its whole tree carries it, however it detached. */
function instanceEntries(servers: { pid: number; cmd: string }[]): string[] {
  return servers.map((p) => {
    const value = envValue(p.pid, INSTANCE_ENV);
    assert.ok(value, `${p.cmd} carries ${INSTANCE_ENV}`);
    return `${INSTANCE_ENV}=${value}`;
  });
}

/**
 * Every live process of the servers marked by `entries`, and the host-death watcher of the host
 * whose `owner` value they carry (core/connection/host-reaper.ts: `sh`, the marker line its argument).
 */
function leftovers(entries: string[], owner: string | undefined): { pid: number; cmd: string }[] {
  const watcher = owner ? pidsWith(`mcp-host-reaper ${OWNER_ENV}=${owner}`) : [];
  return [
    ...entries.flatMap((e) => processesWithEnv(e)),
    ...watcher.map((pid) => ({ pid, cmd: `the host-death watcher (${pid})` })),
  ];
}

async function scenario(t: TestContext, stop: Stop): Promise<void> {
  const w = officialAppsWorkspace();
  const vs = await startVSCode({ workspace: w.ws, name: 'official-apps-exit', env: w.env });
  t.after(async () => {
    await vs.dispose();
    killMarked(w.mark);
    w.remove();
  });
  const step = stepRunner(t, vs);
  let marks: string[] = [];
  let owner: string | undefined;
  await step('the three servers run and the PDF viewer shows the workspace PDF', async () => {
    await connectThree(vs);
    await openPdf(vs);
    const servers = appServers(w.mark);
    marks = instanceEntries(servers);
    owner = envValue(servers[0]!.pid, OWNER_ENV);
  });
  await step(`after ${stop.name}, no process of any server is left within ${DEADLINE_MS / 1000} s`, async () => {
    const before = leftovers(marks, owner);
    const tree = processTree(vs.serverPid);
    const started = Date.now();
    stop.run(vs.serverPid);
    let left = before;
    // A timeout is reported below, naming what is left.
    await poll(
      'every server process gone',
      DEADLINE_MS,
      async () => {
        left = leftovers(marks, owner);
        return left.length === 0 ? true : undefined;
      },
      100,
    ).catch(() => undefined);
    t.diagnostic(`${before.length} process(es) before the stop; ${left.length} left after ${Date.now() - started} ms`);
    t.diagnostic(`code-server's tree: ${tree.length} before the stop, ${tree.filter(isAlive).length} alive now`);
    for (const l of exthostEnd(vs.userDataDir)) t.diagnostic(`exthost: ${l}`);
    assert.deepEqual(
      left.map((p) => p.cmd),
      [],
      `no server process outlives the window by ${DEADLINE_MS / 1000} s`,
    );
  });
}

for (const stop of STOPS)
  test(`the official apps' servers end with the window: ${stop.name}`, { timeout: 600_000 }, (t) => scenario(t, stop));
