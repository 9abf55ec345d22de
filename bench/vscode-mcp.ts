/**
 * Issue 38: MCP Host in real VS Code 1.139 (code-server 4.139.1) beside VS Code's own MCP, with the
 * same 10 stdio servers in the workspace's `.vscode/mcp.json`, each run on a fresh user-data dir
 * (bench/lib/vscode-mcp-child.ts drives the sessions through the e2e harness, under tsx). Figures:
 * the extension host's RSS idle (MCP Host activated, its approval prompt up, no server started;
 * against VS Code without MCP Host, the servers unstarted) and with the 10 servers connected (MCP
 * Host's after Allow; VS Code's own started by `workbench.mcp.startServer "*"`), and the seconds from
 * the workbench showing to MCP Host's approval dialog beside what its `activate` logs.
 *
 * Heavy (two code-servers and a browser per figure on 2 cores): `--quick` skips it; a full run
 * makes n=2 sessions per side (`BENCH_VSCODE_N` overrides). Needs /usr/bin/chromium and the
 * packaged .vsix (a full run's `footprint` group has just made it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { figure, type Figure } from './lib/stats.js';
import type { Run } from './lib/vscode-mcp-child.js';

const OUT = resolve('bench/.tmp/vscode');

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The universal .vsix when it is at least as new as the build, so the child does not package again. */
function freshVsix(): Record<string, string> {
  const { name, version } = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string };
  const vsix = resolve(`${name}-${version}.vsix`);
  if (process.env.MCP_HOST_E2E_VSIX) return {};
  if (
    existsSync(vsix) &&
    existsSync('dist/extension.js') &&
    statSync(vsix).mtimeMs >= statSync('dist/extension.js').mtimeMs
  )
    return { MCP_HOST_E2E_VSIX: vsix };
  return {};
}

function range(xs: number[], digits: number): string {
  return xs.length > 1 ? ` (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})` : '';
}

export async function vscodeMcp(quick: boolean): Promise<Figure[]> {
  const n = Number(process.env.BENCH_VSCODE_N ?? (quick ? 0 : 2));
  if (n <= 0) {
    console.log('[vscode] skipped (--quick; BENCH_VSCODE_N=1 runs one session per side)');
    return [];
  }
  mkdirSync(OUT, { recursive: true });
  const out = join(OUT, 'runs.json');
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/lib/vscode-mcp-child.ts', out, String(n)], {
    stdio: 'inherit',
    env: { ...process.env, ...freshVsix() },
  });
  if (r.status !== 0) throw new Error(`the VS Code sessions ended with ${r.status ?? r.signal}`);
  const runs = JSON.parse(readFileSync(out, 'utf8')) as Run[];
  const host = runs.filter((x) => x.side === 'host');
  const code = runs.filter((x) => x.side === 'vscode');
  for (const x of host) if (x.log) writeFileSync(join(OUT, `host-${host.indexOf(x) + 1}-mcp-host.log`), x.log);
  const idle = mean(host.map((x) => x.idleMb));
  const idleBase = mean(code.map((x) => x.idleMb));
  const prompt = host.map((x) => x.promptS ?? NaN);
  const loads = runs.map((x) => x.load.split(' ')[0]).join(', ');
  console.log(`[vscode] load (1 min) at each session: ${loads}`);
  return [
    figure(
      'vscode',
      `extension host RSS idle, 10 servers unstarted${range(
        host.map((x) => x.idleMb),
        0,
      )}`,
      idle,
      'MB',
      {
        name: `VS Code's own MCP${range(
          code.map((x) => x.idleMb),
          0,
        )}`,
        value: idleBase,
      },
    ),
    figure('vscode', 'idle overhead of MCP Host (host − VS Code)', idle - idleBase, 'MB', undefined, {
      text: '≤ 25 MB',
      ok: (v) => v <= 25,
    }),
    figure(
      'vscode',
      `extension host RSS, 10 servers connected${range(
        host.map((x) => x.connectedMb),
        0,
      )}`,
      mean(host.map((x) => x.connectedMb)),
      'MB',
      {
        name: `VS Code's own MCP${range(
          code.map((x) => x.connectedMb),
          0,
        )}`,
        value: mean(code.map((x) => x.connectedMb)),
      },
      { text: 'host/VS Code ≤ 1.05', ok: (_v, ratio) => ratio !== undefined && ratio <= 1.05 },
    ),
    figure('vscode', `approval prompt after the workbench shows${range(prompt, 2)}`, mean(prompt), 's', undefined, {
      text: '≤ 1.5 s',
      ok: (v) => v <= 1.5,
    }),
    figure('vscode', "MCP Host's activate (its log)", mean(host.map((x) => x.activateMs ?? NaN)), 'ms'),
  ];
}
