/**
 * The lock file agents use to find this editor: `<dir>/<port>.lock`, where `dir` is
 * `$CLAUDE_CONFIG_DIR/ide` (default `~/.claude/ide`). It holds the auth token, so the folder is
 * 0700, the file 0600, and it is written to a temp file and renamed so a reader never sees half.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { claudeIdeLockDir } from '../user-dir.js';
import { ensurePrivateDir, pidAlive, removeFileSync, writePrivateFile } from '../private-file.js';

/** Exactly the fields of the IDE protocol's lock file: agents read these names, so none may change. */
export interface LockFileContent {
  pid: number;
  workspaceFolders: string[];
  ideName: string;
  transport: 'ws';
  runningInWindows: boolean;
  authToken: string;
}

/** `$CLAUDE_CONFIG_DIR/ide`, else `~/.claude/ide`. */
export function defaultLockDir(env: Record<string, string | undefined> = process.env): string {
  // user-dir.ts owns the path, so the sandbox hides the same folder.
  return claudeIdeLockDir(env);
}

export function lockFilePath(dir: string, port: number): string {
  return join(dir, `${port}.lock`);
}

/** Writes the lock file atomically (temp file 0600 + rename). Returns its path. */
export async function writeLockFile(dir: string, port: number, content: LockFileContent): Promise<string> {
  await ensurePrivateDir(dir);
  return writePrivateFile(dir, `${port}.lock`, JSON.stringify(content));
}

export async function removeLockFile(dir: string, port: number): Promise<void> {
  await fs.rm(lockFilePath(dir, port), { force: true });
}

/** Synchronous variant for process exit, where no promise will be awaited. */
export function removeLockFileSync(dir: string, port: number): void {
  removeFileSync(lockFilePath(dir, port));
}

/**
 * Removes lock files this kind of editor left behind: same `ideName`, and their pid is dead.
 * Other IDEs' files and unreadable files are left alone. Returns the removed paths.
 */
export async function cleanStaleLockFiles(
  dir: string,
  ideName: string,
  isAlive: (pid: number) => boolean = pidAlive,
): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!/^\d+\.lock$/.test(name)) continue;
    const file = join(dir, name);
    try {
      const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<LockFileContent>;
      if (parsed.ideName !== ideName || typeof parsed.pid !== 'number') continue;
      if (parsed.pid === process.pid || isAlive(parsed.pid)) continue;
      await fs.rm(file, { force: true });
      removed.push(file);
    } catch {
      // Not ours to judge.
    }
  }
  return removed;
}
