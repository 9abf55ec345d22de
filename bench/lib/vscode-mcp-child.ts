/**
 * The `vscode` group's sessions (bench/vscode-mcp.ts), run under tsx because they drive real
 * code-server through the e2e harness (test/e2e/harness.ts), which finds the repo from its own path.
 *
 *   node --import tsx bench/lib/vscode-mcp-child.ts OUT.json N [host|vscode]…
 *
 * Each run is a fresh code-server 4.139.1 (fresh user data, HOME, workspace copy) with the same 10
 * stdio servers in `.vscode/mcp.json`: "host" has MCP Host installed (it asks before the workspace's
 * servers run), "vscode" has no MCP Host and VS Code's own MCP starts them. The sides take turns
 * (host, vscode, host, vscode…) so load from elsewhere lands on both. OUT gets one {@link Run} per session.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { processTree } from '../../src/core/connection/process-tree.js';
import { extensionHostLogFiles, killMarked, poll, repoRoot, startVSCode, type VSCode } from '../../test/e2e/harness.js';

export const SERVERS = 10;
const CODE_SERVER = '4.139.1';
const FIXTURE = join(repoRoot, 'test', 'fixtures', 'servers', 'stdio-server.mjs');
/** How long both sides sit after the workbench (and the prompt) before the idle reading. */
const IDLE_SETTLE_MS = 8000;

export interface Run {
  side: 'host' | 'vscode';
  /** Extension host RSS (MB), idle: MCP Host activated with its prompt up / VS Code with the servers unstarted. */
  idleMb: number;
  /** Extension host RSS (MB) once the 10 servers were initialized and listed. */
  connectedMb: number;
  /** Seconds from the workbench showing to MCP Host's approval dialog (host side only). */
  promptS?: number;
  /** What MCP Host logged as its `activate` time (ms). */
  activateMs?: number;
  /** MCP Host's main log, for the timeline (host side only). */
  log?: string;
  /** Seconds from the workbench to the extension host process started / its eager extensions activated (exthost.log). */
  extHostStartedS?: number;
  eagerActivatedS?: number;
  /** `[tl]` lines of a diagnostic build (label → wall-clock ms). */
  timeline?: Record<string, number>;
  /** VS Code's extension host log, for the timeline. */
  exthostLog?: string;
  /** The VS Code perf marks of the page (ms since navigation) and when the rig saw things. */
  marks: Record<string, number>;
  load: string;
}

function workspace(dir: string, record: string, mark: string): void {
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < SERVERS; i++)
    servers[`s${i}`] = {
      type: 'stdio',
      command: process.execPath,
      args: [FIXTURE, '--name', `s${i}`, '--record', record, mark],
    };
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  // One line per server: every "Start" code lens VS Code shows above a server is on screen at once.
  const lines = Object.entries(servers).map(([name, def]) => `    ${JSON.stringify(name)}: ${JSON.stringify(def)}`);
  writeFileSync(join(dir, '.vscode', 'mcp.json'), `{\n  "servers": {\n${lines.join(',\n')}\n  }\n}\n`);
}

/** RSS (MB) of the extension host under code-server (its command line names `--type=extensionHost`). */
function extHostRss(serverPid: number): number {
  const hosts = processTree(serverPid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('extensionHost');
    } catch {
      return false;
    }
  });
  if (hosts.length !== 1) throw new Error(`expected one extension host under ${serverPid}, found ${hosts.length}`);
  const status = readFileSync(`/proc/${hosts[0]}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** Readings 1 s apart until two agree within 2 MB (at most 10); the last one. */
async function settledRss(serverPid: number): Promise<number> {
  let last = extHostRss(serverPid);
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = extHostRss(serverPid);
    if (Math.abs(now - last) <= 2) return now;
    last = now;
  }
  return last;
}

function readyCount(record: string): number {
  try {
    return readFileSync(record, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('ready')).length;
  } catch {
    return 0;
  }
}

/**
 * Records in the page when a modal dialog first shows (performance.now(), the clock of VS Code's
 * own `code/…` marks), so the prompt's time does not include the rig's polling.
 */
async function watchDialogs(page: Page): Promise<Record<string, number>> {
  // A string, not a function: tsx would wrap a named closure in its `__name` helper, which the page lacks.
  return page.evaluate(`(() => {
    const seen = () => {
      if (window.__dialogAt === undefined && document.querySelector('.monaco-dialog-box')) window.__dialogAt = performance.now();
    };
    seen();
    new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
    const marks = { rigSawWorkbench: performance.now(), wallAtZero: Date.now() - performance.now() };
    for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('code/')) marks[m.name] = m.startTime;
    return marks;
  })()`);
}

/** When the workbench showed (page ms): VS Code's own `code/didStartWorkbench` mark, else when the rig saw it. */
function workbenchAt(marks: Record<string, number>): number {
  return marks['code/didStartWorkbench'] ?? marks.rigSawWorkbench;
}

/**
 * Seconds from the workbench showing to the extension host process running and to its eager
 * extensions activated, from exthost.log's wall-clock lines and the page's clock: what VS Code
 * spends before any extension runs, on both sides.
 */
function extHostStart(run: Run, log: string): void {
  const at = (re: RegExp): number | undefined => {
    const m = new RegExp(`^(\\d{4}-\\d\\d-\\d\\d) (\\d\\d:\\d\\d:\\d\\d\\.\\d+) .*${re.source}`, 'm').exec(log);
    return m
      ? (new Date(`${m[1]}T${m[2]}`).getTime() - run.marks.wallAtZero - workbenchAt(run.marks)) / 1000
      : undefined;
  };
  run.extHostStartedS = at(/Extension host with pid \d+ started/);
  run.eagerActivatedS = at(/Eager extensions activated/);
}

async function dialogAt(vs: VSCode): Promise<number> {
  return poll('the approval dialog', 120_000, () => vs.page.evaluate<number | undefined>('window.__dialogAt'));
}

async function hostSide(vs: VSCode, record: string, run: Run): Promise<void> {
  const log = await vs.waitForLogFile('MCP Host', /activated in [\d.]+ ms/, 120_000);
  run.activateMs = Number(/activated in ([\d.]+) ms/.exec(log)?.[1]);
  const at = await dialogAt(vs);
  run.marks.dialog = at;
  run.promptS = (at - workbenchAt(run.marks)) / 1000;
  await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
  run.idleMb = await settledRss(vs.serverPid);
  const text = await vs.clickDialogButton('Allow');
  if (!text.includes(`${SERVERS} MCP servers`)) throw new Error(`unexpected approval dialog: ${text.slice(0, 200)}`);
  await poll(`${SERVERS} servers initialized`, 180_000, () =>
    Promise.resolve(readyCount(record) >= SERVERS || undefined),
  );
  await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS / 2));
  run.connectedMb = await settledRss(vs.serverPid);
  run.log = vs.readLogFile('MCP Host');
}

/**
 * VS Code's own MCP starts each server from the "Start" code lens it shows above the server in
 * `.vscode/mcp.json` (its own `workbench.mcp.startServer` with `autoTrustChanges`; that command is
 * not in the palette, and a keybinding to it written after start was not picked up).
 */
async function vscodeSide(vs: VSCode, record: string, run: Run): Promise<void> {
  await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
  run.idleMb = await settledRss(vs.serverPid);
  const explorer = vs.page.locator('.explorer-folders-view .monaco-list-row');
  await explorer.filter({ hasText: /^\s*\.vscode\s*$/ }).click();
  await explorer.filter({ hasText: /^\s*mcp\.json\s*$/ }).click();
  const lenses = vs.page.locator('.codelens-decoration a').filter({ hasText: /^\s*Start\s*$/ });
  await poll(`${SERVERS} servers started by VS Code`, 180_000, async () => {
    if (readyCount(record) >= SERVERS) return true;
    const box = vs.page.locator('.monaco-dialog-box');
    if (await box.isVisible()) {
      console.error(`[vscode] VS Code asks: ${(await box.innerText()).slice(0, 300)}`);
      const trust = box.locator('.monaco-button').filter({ hasText: /^\s*(Trust|Allow|Start)/ });
      if ((await trust.count()) > 0) await trust.first().click();
    } else if ((await lenses.count()) > 0) await lenses.first().click({ timeout: 5000 });
    return undefined;
  });
  await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS / 2));
  run.connectedMb = await settledRss(vs.serverPid);
}

async function session(side: Run['side']): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), `mcp-host-bench-vscode-${side}-`));
  const mark = `mcp-host-bench-vscode-${process.pid}-${side}`;
  const record = join(dir, 'record.txt');
  const ws = join(dir, 'ws');
  workspace(ws, record, mark);
  const vs = await startVSCode({
    workspace: ws,
    name: `bench-vscode-${side}`,
    codeServer: CODE_SERVER,
    extension: side === 'host',
    startTimeoutMs: 240_000,
  });
  const run: Run = { side, idleMb: NaN, connectedMb: NaN, marks: {}, load: loadavg() };
  // What the extension host prints with a "[tl] label wall-ms" line (a diagnostic build) reaches the page's console.
  run.timeline = {};
  vs.page.on('console', (m) => {
    const hit = /\[tl\] (\S+) (\d+)/.exec(m.text());
    // The first of each: a reload after Allow prints them again.
    if (hit) run.timeline![hit[1]] ??= Number(hit[2]);
  });
  try {
    run.marks = await watchDialogs(vs.page);
    await (side === 'host' ? hostSide(vs, record, run) : vscodeSide(vs, record, run));
    run.exthostLog = extensionHostLogFiles(vs.userDataDir)
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    extHostStart(run, run.exthostLog);
  } finally {
    await vs.dispose().catch((e: unknown) => console.error(`[vscode] dispose: ${String(e)}`));
    killMarked(mark);
    rmSync(dir, { recursive: true, force: true });
  }
  return run;
}

function loadavg(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

async function main(): Promise<void> {
  const [out, nArg, ...sidesArg] = process.argv.slice(2);
  const n = Number(nArg ?? 2);
  const sides = (sidesArg.length ? sidesArg : ['host', 'vscode']) as Run['side'][];
  const runs: Run[] = [];
  for (let i = 0; i < n; i++)
    for (const side of sides) {
      const r = await session(side);
      console.log(
        `[vscode] ${side} #${i + 1}: idle ${r.idleMb.toFixed(0)} MB, connected ${r.connectedMb.toFixed(0)} MB` +
          (r.promptS !== undefined ? `, prompt ${r.promptS.toFixed(2)} s, activate ${r.activateMs} ms` : '') +
          `, extension host started ${r.extHostStartedS?.toFixed(2)} s and eager extensions activated ${r.eagerActivatedS?.toFixed(2)} s after the workbench` +
          ` (load ${r.load})`,
      );
      runs.push(r);
      // After every session: a later one that fails leaves what was measured for the timeline.
      writeFileSync(out, JSON.stringify(runs, null, 2));
    }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : String(e));
  process.exitCode = 1;
});
