/**
 * Files that let another process find this one and carry a secret (the IDE lock file with its auth
 * token, the gateway discovery file with its bearer token): the folder is 0700, the file 0600, and
 * it is written to a temp file and renamed, so a reader never sees half a file. Such files are
 * named after a process, and a file whose process is gone is stale.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Creates `dir` 0700, and tightens it when it already exists looser (another tool may have made it). */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const st = await fs.stat(dir);
  // Tokens inside must not be readable by other users.
  if ((st.mode & 0o077) !== 0) await fs.chmod(dir, 0o700);
}

/**
 * Writes `dir/name` atomically with mode 0600: an exclusive temp file (so a planted symlink is
 * never followed), flushed, then renamed over the target. The folder must exist (`ensurePrivateDir`).
 */
export async function writePrivateFile(dir: string, name: string, text: string): Promise<string> {
  const target = join(dir, name);
  const tmp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, target);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  return target;
}

/** Removes a file at process exit, where no promise will be awaited. Best effort. */
export function removeFileSync(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Best effort at exit.
  }
}

/** Whether a process with this pid exists (the writer of a file named after it). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
