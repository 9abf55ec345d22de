/**
 * Runs the CLI as a user would: servers are configured in a temp workspace's `.mcp.json` and
 * started for real (fixture servers bundled with esbuild into a temp folder), each command line
 * runs through the CLI's entry function (`runCli`) in the test's process with its own stdout,
 * stderr, working folder and environment, as a new process would get them; `runBinary` and `start`
 * run the bundled CLI as a new process, for what only a process shows (exit code and flushed
 * output of the binary, signals, what is left running after it exits). A process of the CLI costs
 * about 0.2 s of CPU to load before it does anything, paid once per command line: these files run
 * more than a hundred. Everything created is removed in `dispose`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, cp, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { Terminal } from '../../../src/cli/io.js';
import { runCli } from '../../../src/cli/main.js';
import { pidAlive } from '../../../src/core/private-file.js';
import { launcherSource, serverScript } from '../../support/fixture-servers.js';
import { oncePerRun } from '../../support/once-per-run.js';
import { shippedBuild } from '../../support/shipped-build.js';
import { gatewayPathEnv } from '../../support/gateway-path.js';

export const ROOT = resolve(__dirname, '..', '..', '..');
export const EVERYTHING = serverScript(
  join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'),
);

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** `run` only: a person at a terminal (default: none, as for the binary spawned with stdin ignored). */
  terminal?: Terminal;
}

export interface Harness {
  dir: string;
  cli: string;
  fixture(name: 'errors-server' | 'unicode-tools'): string;
  /** A new folder with `.mcp.json` holding `servers`. */
  workspace(name: string, servers: Record<string, unknown>): Promise<string>;
  /** One command line through `runCli` in this process. */
  run(args: string[], opts: RunOptions): Promise<CliRun>;
  /** One command line as a new process of the bundled CLI. */
  runBinary(args: string[], opts: RunOptions): Promise<CliRun>;
  /** Starts the CLI without waiting; `exit` resolves with its code or signal. */
  start(
    args: string[],
    opts: { cwd: string },
  ): { child: ChildProcess; exit: Promise<{ code: number | null; stderr: string }> };
  dispose(): Promise<void>;
}

/**
 * The CLI and fixture bundles, built once per test run (test/support/once-per-run.ts). The binary is
 * the run's production cli.js (test/support/shipped-build.ts: what `npm run package` builds), copied
 * beside the sandbox runtime it loads; `<name>.js` runs the bundle `<name>.bundle.cjs` from a V8 code
 * cache beside it (scripts/lib/code-cache.cjs): these files start the binary and its fixture servers
 * about fifty times a run. The copy keeps the cache out of the shared build, which package.test.ts packs.
 */
function bundles(): Promise<string> {
  return oncePerRun('cli-bin', async (out) => {
    const { dist } = await shippedBuild();
    await Promise.all([
      copyFile(join(dist, 'cli.js'), join(out, 'cli.bundle.cjs')),
      copyFile(join(dist, 'sandbox-runtime.js'), join(out, 'sandbox-runtime.js')),
      copyFile(join(dist, 'redis-client.js'), join(out, 'redis-client.js')),
      cp(join(dist, 'vendor'), join(out, 'vendor'), { recursive: true }),
      writeFile(join(out, 'cli.js'), launcherSource('cli.bundle.cjs')),
      ...Object.entries(FIXTURES).map(async ([name, entry]) => {
        await build({
          entryPoints: [entry],
          outfile: join(out, `${name}.bundle.cjs`),
          bundle: true,
          platform: 'node',
          target: 'node20',
          format: 'cjs',
          mainFields: ['module', 'main'],
          external: ['bufferutil', 'utf-8-validate'],
          logLevel: 'warning',
        });
        await writeFile(join(out, `${name}.js`), launcherSource(`${name}.bundle.cjs`));
      }),
    ]);
  });
}

const FIXTURES = {
  'errors-server': join(ROOT, 'test', 'integration', 'cli', 'fixtures', 'errors-server.ts'),
  'unicode-tools': join(ROOT, 'test', 'fixtures', 'servers', 'unicode-tools.ts'),
};

export async function createHarness(): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-cli-it-'));
  const bin = await bundles();
  const children = new Set<ReturnType<typeof spawn>>();
  // A private blob dir and no inherited MCP_* overrides, so the machine's env cannot skew results.
  // The folders these tests make are their own: their servers start without approval, as with
  // --allow-project-servers (approval.test.ts sets it to '' to see what a cloned repository gets).
  const envFor = (opts: Partial<RunOptions>): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: dir,
    MCP_HOST_BLOB_DIR: join(dir, 'blobs'),
    MCP_HOST_ALLOW_PROJECT_SERVERS: '1',
    // The gateway path the test process runs on (scripts/test.mjs runs the gateway's files on both).
    ...gatewayPathEnv(),
    ...opts.env,
  });
  return {
    dir,
    cli: join(bin, 'cli.js'),
    fixture: (name) => join(bin, `${name}.js`),
    async workspace(name, servers) {
      const ws = join(dir, name);
      await mkdir(ws, { recursive: true });
      await writeFile(join(ws, '.mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2));
      return ws;
    },
    async run(args, opts) {
      let stdout = '';
      let stderr = '';
      const io = {
        stdout: (s: string) => void (stdout += s),
        stderr: (s: string) => void (stderr += s),
        env: envFor(opts),
        cwd: opts.cwd,
        // As the binary's (stdin not a terminal, spawned with 'ignore'): nobody answers.
        terminal: opts.terminal ?? { interactive: false, question: () => Promise.resolve(undefined) },
      };
      const timeoutMs = opts.timeoutMs ?? 90_000;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, fail) => {
        timer = setTimeout(
          () =>
            fail(
              new Error(
                `mcp-host ${args.join(' ')} did not end within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
              ),
            ),
          timeoutMs,
        );
      });
      try {
        const code = await Promise.race([runCli(args, io), timedOut]);
        return { code, stdout, stderr };
      } finally {
        clearTimeout(timer);
      }
    },
    runBinary(args, opts) {
      return new Promise((done, fail) => {
        const child = spawn(process.execPath, [join(bin, 'cli.js'), ...args], {
          cwd: opts.cwd,
          env: envFor(opts),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.add(child);
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          fail(
            new Error(
              `mcp-host ${args.join(' ')} did not exit within ${opts.timeoutMs ?? 90_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
            ),
          );
        }, opts.timeoutMs ?? 90_000);
        child.on('error', fail);
        child.on('close', (code) => {
          clearTimeout(timer);
          children.delete(child);
          done({ code, stdout, stderr });
        });
      });
    },
    start(args, opts) {
      const child = spawn(process.execPath, [join(bin, 'cli.js'), ...args], {
        cwd: opts.cwd,
        env: envFor({}),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout!.resume();
      const exit = new Promise<{ code: number | null; stderr: string }>((done) => {
        child.on('close', (code) => {
          children.delete(child);
          done({ code, stderr });
        });
      });
      return { child, exit };
    },
    async dispose() {
      for (const c of children) c.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** True while a process with this pid exists. */
export const alive = pidAlive;

/** Waits until `pid` is gone (the CLI stops servers before it exits, but reaping can lag a moment). */
export async function waitGone(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}
