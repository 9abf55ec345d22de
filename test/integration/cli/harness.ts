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
import { existsSync, watch } from 'node:fs';
import { mkdtemp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { runCli } from '../../../src/cli/main.js';
import { pidAlive } from '../../../src/core/private-file.js';
import { VERSION } from '../../../src/core/version.js';
import { launcherSource, serverScript } from '../../support/fixture-servers.js';

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
 * The CLI and fixture bundles. scripts/test.mjs names a folder for its run (MCP_HOST_TEST_RUN_DIR):
 * the files that use this harness then share one build of this run's sources instead of bundling
 * the CLI each. The first file to ask builds (it holds `cli-bin.lock`) while the others, started at
 * the same moment, wait for its result; the build goes to a folder of its own and is renamed into
 * place, so nobody sees half a bundle. A builder that fails releases the lock without a result, and
 * a waiter then builds for itself.
 */
async function bundles(own: string): Promise<string> {
  const run = process.env.MCP_HOST_TEST_RUN_DIR;
  const shared = run ? join(run, 'cli-bin') : undefined;
  if (shared && existsSync(shared)) return shared;
  const lock = shared && `${shared}.lock`;
  const mine = !run || !lock || (await takeLock(lock));
  if (!mine && (await builtElsewhere(run, shared, lock))) return shared;
  try {
    return await buildBundles(own, run, shared);
  } finally {
    if (lock && mine) await rm(lock, { recursive: true, force: true });
  }
}

async function takeLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch {
    return false;
  }
}

/** Resolves true once another file's build is in place, false once its lock goes without one. */
function builtElsewhere(run: string, shared: string, lock: string, timeoutMs = 120_000): Promise<boolean> {
  return new Promise((done, fail) => {
    const check = (): boolean => {
      if (existsSync(shared)) return finish(true);
      if (!existsSync(lock)) return finish(false);
      return false;
    };
    const watcher = watch(run, check);
    const timer = setTimeout(
      () => fail(new Error(`no CLI build in ${shared} within ${timeoutMs} ms (${lock} still held)`)),
      timeoutMs,
    );
    const finish = (built: boolean): boolean => {
      watcher.close();
      clearTimeout(timer);
      done(built);
      return true;
    };
    check();
  });
}

async function buildBundles(own: string, run: string | undefined, shared: string | undefined): Promise<string> {
  const out = run ? await mkdtemp(join(run, 'cli-bin-')) : join(own, 'bin');
  const common = {
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    format: 'cjs' as const,
    mainFields: ['module', 'main'],
    external: ['bufferutil', 'utf-8-validate'],
    logLevel: 'warning' as const,
    // As esbuild.config.mjs does: the version of package.json (src/core/version.ts).
    define: { __MCP_HOST_VERSION__: JSON.stringify(VERSION) },
  };
  const entries = {
    cli: join(ROOT, 'src', 'cli', 'main.ts'),
    'errors-server': join(ROOT, 'test', 'integration', 'cli', 'fixtures', 'errors-server.ts'),
    'unicode-tools': join(ROOT, 'test', 'fixtures', 'servers', 'unicode-tools.ts'),
  };
  // The binary gets the one protocol core the shipped cli.js has (esbuild.config.mjs), so the command
  // lines run here on the real binary exercise it; the fixture servers keep the SDK as published.
  const { sdkCoreOnce } = (await import(join(ROOT, 'scripts', 'lib', 'sdk-core-once.mjs'))) as { sdkCoreOnce: Plugin };
  // `<name>.js` runs the bundle `<name>.bundle.cjs` from a V8 code cache beside it: these files
  // start the binary and its fixture servers about fifty times a run (scripts/lib/code-cache.cjs).
  await Promise.all(
    Object.entries(entries).map(async ([name, entry]) => {
      await build({
        ...common,
        entryPoints: [entry],
        outfile: join(out, `${name}.bundle.cjs`),
        plugins: name === 'cli' ? [sdkCoreOnce] : [],
      });
      await writeFile(join(out, `${name}.js`), launcherSource(`${name}.bundle.cjs`));
    }),
  );
  if (!shared) return out;
  try {
    await rename(out, shared);
  } catch {
    // Another file's build got there first: it is the same sources.
    await rm(out, { recursive: true, force: true });
  }
  return shared;
}

export async function createHarness(): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-cli-it-'));
  const bin = await bundles(dir);
  const children = new Set<ReturnType<typeof spawn>>();
  // A private blob dir and no inherited MCP_* overrides, so the machine's env cannot skew results.
  const envFor = (opts: Partial<RunOptions>): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: dir,
    MCP_HOST_BLOB_DIR: join(dir, 'blobs'),
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
        terminal: { interactive: false, question: () => Promise.resolve(undefined) },
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
