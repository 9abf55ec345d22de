/**
 * Something a test run builds once for all its files: scripts/test.mjs names a folder for its run
 * (MCP_HOST_TEST_RUN_DIR), and the first file to ask for `name` builds it there while the others,
 * started at the same moment, wait for its result. The builder holds `<name>.lock`, builds into a
 * folder of its own and renames it into place, so nobody sees half a build. A builder that fails
 * releases the lock without a result, and a waiter then builds for itself. Without a run folder
 * (`node --test` by hand) each process builds into a temp folder removed when it exits.
 */
import { existsSync, mkdtempSync, rmSync, watch } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ownBuilds = new Map<string, Promise<string>>();

export async function oncePerRun(
  name: string,
  build: (dir: string) => Promise<void>,
  timeoutMs = 120_000,
): Promise<string> {
  const run = process.env.MCP_HOST_TEST_RUN_DIR;
  if (!run) {
    let own = ownBuilds.get(name);
    if (!own) {
      const dir = mkdtempSync(join(tmpdir(), `mcp-host-${name}-`));
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      own = build(dir).then(() => dir);
      ownBuilds.set(name, own);
    }
    return own;
  }
  const shared = join(run, name);
  if (existsSync(shared)) return shared;
  const lock = `${shared}.lock`;
  const mine = await takeLock(lock);
  if (!mine && (await builtElsewhere(run, shared, lock, timeoutMs))) return shared;
  try {
    const out = await mkdtemp(join(run, `${name}-`));
    try {
      await build(out);
      await rename(out, shared);
    } catch (err) {
      await rm(out, { recursive: true, force: true });
      // Another file's build got there first: it is the same sources.
      if (existsSync(shared)) return shared;
      throw err;
    }
    return shared;
  } finally {
    if (mine) await rm(lock, { recursive: true, force: true });
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
function builtElsewhere(run: string, shared: string, lock: string, timeoutMs: number): Promise<boolean> {
  return new Promise((done, fail) => {
    const check = (): boolean => {
      if (existsSync(shared)) return finish(true);
      if (!existsSync(lock)) return finish(false);
      return false;
    };
    const watcher = watch(run, check);
    const timer = setTimeout(() => {
      watcher.close();
      fail(new Error(`no build in ${shared} within ${timeoutMs} ms (${lock} still held)`));
    }, timeoutMs);
    const finish = (built: boolean): boolean => {
      watcher.close();
      clearTimeout(timer);
      done(built);
      return true;
    };
    check();
  });
}
