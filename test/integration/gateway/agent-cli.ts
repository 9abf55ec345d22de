/**
 * Running a real agent CLI from npm (Codex, Copilot CLI) against `mcp-host serve`: the probe that
 * tells whether its binary runs here, and one run of it with every process it starts (the agent,
 * serve, serve's servers) marked by an environment variable, ended and checked gone afterwards.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { killTree, killTreeSync, processesMarked } from '../../../src/core/connection/process-tree.js';
import { poll, withDeadline } from '../../support/wait.js';

/**
 * Why the agent at `bin` cannot run here (`--version` fails), or false. Under CI=true it throws:
 * `npm ci` installs the agent with its platform package, so a binary that does not run is a broken
 * install, and skipping would let every case pass unseen.
 */
export function agentUnavailable(bin: string, what: string): string | false {
  const probe = existsSync(bin)
    ? spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '' } })
    : { status: null, stdout: '', stderr: `${bin} is not installed`, error: undefined };
  if (probe.status === 0 && /\d+\.\d+\.\d+/.test(probe.stdout)) return false;
  const why = `the ${what} binary cannot run on ${process.platform}-${process.arch}: ${String(probe.error ?? probe.stderr).slice(0, 300)}`;
  if (process.env.CI) throw new Error(`${why} (CI runs these cases: check npm ci's output)`);
  return why;
}

export interface AgentExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

const live = new Set<{ pid: number; env: string }>();
// A test that times out never reaches its finally; the file's process still ends what it started.
process.once('exit', () => {
  for (const r of live) killTreeSync(r.pid, { env: r.env });
});

/**
 * Runs `bin args` to its end (at most `timeoutMs`) and waits until no process carrying
 * `markerVar=marker` (which the agent passes on to serve and serve to its servers) is left; then,
 * whatever happened, ends what is left of its tree and asserts that nothing is.
 */
export async function runAgent(opts: {
  bin: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  markerVar: string;
  marker: string;
  timeoutMs?: number;
}): Promise<AgentExit> {
  const env = `${opts.markerVar}=${opts.marker}`;
  const child = spawn(opts.bin, opts.args, {
    cwd: opts.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...opts.env, [opts.markerVar]: opts.marker },
  });
  const entry = { pid: child.pid!, env };
  live.add(entry);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  try {
    const code = await withDeadline(
      new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', resolve);
      }),
      `exit of ${opts.bin}`,
      opts.timeoutMs ?? 150_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\nstdout: ${stdout.slice(-1500)}\nstderr: ${stderr.slice(-1500)}`);
    });
    // serve ends with its stdin (issue 42 item 1), and its servers with it: nothing is left once the
    // agent is gone, before anyone kills anything.
    await poll('every process of the run to end with the agent', 20_000, () =>
      Promise.resolve(processesMarked({ env }).length === 0 ? true : undefined),
    ).catch((e: Error) => {
      throw new Error(`${e.message}\nstdout: ${stdout.slice(-1500)}\nstderr: ${stderr.slice(-1500)}`);
    });
    return { code, stdout, stderr };
  } finally {
    await killTree(child.pid!, { marker: { env } });
    live.delete(entry);
    assert.deepEqual(processesMarked({ env }), [], 'every process of the run (the agent, serve, servers) is gone');
  }
}
