/**
 * Per-workspace state both front ends can read: `<user config dir>/workspaces/<sha256 of the
 * workspace path>.json` (folder 0700, file 0600, replaced atomically). The editor and `mcp-host
 * --workspace DIR` name the same folder, so a tool switched off in the tree is off in the CLI too
 * (VS Code's own workspaceState lives in the editor's database, which the CLI cannot read).
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { KeyValueStore } from '../ports.js';

export function workspaceStateFile(configDir: string, workspace: string): string {
  const id = createHash('sha256').update(resolve(workspace)).digest('hex').slice(0, 32);
  return join(configDir, 'workspaces', `${id}.json`);
}

export class WorkspaceStateStore implements KeyValueStore {
  private data: Record<string, unknown>;
  private chain: Promise<void> = Promise.resolve();
  readonly path: string;

  constructor(
    configDir: string,
    private readonly workspace: string,
  ) {
    this.path = workspaceStateFile(configDir, workspace);
    this.data = this.load();
  }

  private load(): Record<string, unknown> {
    try {
      const v: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  /** Picks up a change another process (the CLI, another window) wrote. */
  reload(): void {
    this.data = this.load();
  }

  get<T>(key: string): T | undefined {
    return this.data[key] as T | undefined;
  }

  update(key: string, value: unknown): Promise<void> {
    return this.modify(key, () => value);
  }

  /**
   * Replaces `key` with what `change` makes of the value on disk, under the file's lock: two
   * processes deciding at once (the editor and `mcp-host approve`, two CLI runs) each keep their
   * change, where writing a value computed from a stale read kept only the last one.
   */
  modify(key: string, change: (current: unknown) => unknown): Promise<void> {
    this.data = { ...this.data, [key]: change(this.data[key]) };
    this.chain = this.chain
      .catch(() => undefined)
      .then(() => {
        mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
        withFileLock(`${this.path}.lock`, () => {
          // Other keys written meanwhile by another process survive: re-read, then set ours.
          const fresh = this.load();
          const onDisk = { ...fresh, workspace: resolve(this.workspace), [key]: change(fresh[key]) };
          const tmp = `${this.path}.${process.pid}.tmp`;
          writeFileSync(tmp, `${JSON.stringify(onDisk, null, 2)}\n`, { mode: 0o600 });
          chmodSync(tmp, 0o600);
          renameSync(tmp, this.path);
          this.data = onDisk;
        });
      });
    return this.chain;
  }
}

/** A lock older than this belongs to a process that died holding it. */
const STALE_LOCK_MS = 10_000;
/** Past this, the lock is taken from its holder: a slow write loses a race, never the whole update. */
const LOCK_WAIT_MS = 5_000;

/**
 * Runs `fn` while holding `lockPath` (created exclusively). The critical section is a read and a
 * rename of a small file, so waiting is short and synchronous (Atomics.wait, no busy loop).
 */
function withFileLock(lockPath: string, fn: () => void): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lockPath, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (Date.now() > deadline || lockAge(lockPath) > STALE_LOCK_MS) {
        try {
          unlinkSync(lockPath);
        } catch {
          // Another waiter removed it first; try again.
        }
        continue;
      }
      Atomics.wait(pause, 0, 0, 2 + Math.floor(Math.random() * 8));
    }
  }
  try {
    fn();
  } finally {
    closeSync(fd);
    try {
      unlinkSync(lockPath);
    } catch {
      // Taken over by a waiter that judged it stale; nothing of ours to remove.
    }
  }
}

function lockAge(lockPath: string): number {
  try {
    return Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}
