/** Shared helpers for the connection integration tests: fixture paths, defs, servers, waiting. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freeLoopbackPort } from '../../../src/core/loopback.js';
import type { ServerSnapshot } from '../../../src/core/host-api.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import type { McpHost } from '../../../src/core/host.js';
import { def } from '../../support/defs.js';
import { untilServer } from '../../support/wait.js';
import { serverScript } from '../../support/fixture-servers.js';

export const ROOT = path.resolve(__dirname, '../../..');
export const FIXTURES = path.join(ROOT, 'test/fixtures/servers');
export const STDIO_FIXTURE = serverScript(path.join(FIXTURES, 'stdio-server.mjs'));
export const EVERYTHING = serverScript(
  path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
);

export { def } from '../../support/defs.js';

export function stdioDef(name: string, args: string[] = [], extra: Record<string, unknown> = {}): ServerDefinition {
  return def(name, {
    type: 'stdio',
    command: process.execPath,
    args: [STDIO_FIXTURE, '--name', name, ...args],
    ...extra,
  });
}

export { MemoryLogger } from '../../support/logger.js';

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `mcp-host-${prefix}-`));
}

/** Waits until `pred` holds for the server's snapshot, listening to change events. */
export function waitFor(
  host: McpHost,
  name: string,
  pred: (s: ServerSnapshot) => boolean,
  timeoutMs = 60_000,
): Promise<ServerSnapshot> {
  return untilServer(host, name, pred, timeoutMs);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Every pid a fixture's `--record` file names: servers ("start pid …") and grandchildren ("grandchild:pid …"). */
export function recordedPids(rec: string): number[] {
  if (!fs.existsSync(rec)) return [];
  const pids = fs
    .readFileSync(rec, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' '))
    .map(([ev, pid]) => (ev.startsWith('grandchild:') ? Number(ev.slice('grandchild:'.length)) : Number(pid)));
  return [...new Set(pids)];
}

/** Kills leftover pids (cleanup on failure only). */
export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/** A free loopback port (core's, shared with dev mode's debugpy port). */
export const freePort = freeLoopbackPort;

/** A background server process we started; `stop()` kills it (and is safe to call twice). */
export interface RunningServer {
  proc: ChildProcess;
  port: number;
  url: string;
  stop(): Promise<void>;
}

function stopper(proc: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
}

/** Starts a fixture that prints "PORT <n>" on stdout. */
export function startPortServer(script: string, args: string[] = [], pathSuffix = '/'): Promise<RunningServer> {
  const proc = spawn(process.execPath, [serverScript(path.join(FIXTURES, script)), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stderr!.resume();
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${script} did not print its port`));
    }, 60_000);
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /PORT (\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        proc.stdout!.removeAllListeners('data');
        proc.stdout!.resume();
        const port = Number(m[1]);
        resolve({ proc, port, url: `http://127.0.0.1:${port}${pathSuffix}`, stop: stopper(proc) });
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}`));
    });
  });
}

/** Starts server-everything over sse or streamableHttp on a free port, waiting until it listens. */
export async function startEverything(mode: 'sse' | 'streamableHttp'): Promise<RunningServer> {
  for (let tries = 0; ; tries++) {
    const port = await freePort();
    const proc = spawn(process.execPath, [EVERYTHING, mode], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout!.resume();
    const ok = await new Promise<boolean>((resolve) => {
      let buf = '';
      const timer = setTimeout(() => resolve(false), 60_000);
      proc.stderr!.on('data', (d: Buffer) => {
        buf += d.toString();
        if (/running on port|listening on port/i.test(buf)) {
          clearTimeout(timer);
          resolve(true);
        } else if (/in use|EADDRINUSE/i.test(buf)) {
          clearTimeout(timer);
          resolve(false);
        }
      });
      proc.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (ok) {
      proc.stderr!.resume();
      const url = `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`;
      return { proc, port, url, stop: stopper(proc) };
    }
    await stopper(proc)();
    if (tries >= 3) throw new Error(`server-everything ${mode} did not start`);
  }
}

export function textOf(r: { content: { type: string; text?: string }[] }): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** Pids of live processes whose command line contains `marker` (to find processes we never saw start). */
export function pidsWithArg(marker: string): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8');
      if (cmd.includes(marker) && isAlive(Number(e))) out.push(Number(e));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}
