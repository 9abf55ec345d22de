/**
 * The start lock of a shared gateway's folder: of several `serve` sessions starting at once, one
 * starts the gateway and the others wait for it. An exclusive create (`wx`) is the lock; it holds
 * the holder's pid, and a lock whose holder is gone (killed while starting) is taken over. The
 * lock only saves work: the gateway's bind of its socket (listener.ts) is what keeps two from
 * serving, so a takeover racing a fresh holder at worst starts a gateway that finds the socket
 * taken and leaves.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pidAlive } from '../../private-file.js';

const LOCK = 'start.lock';
/** A lock older than this is stale even if its pid lives (a reused pid): a start takes seconds. */
const STALE_MS = 60_000;

async function tryTake(file: string): Promise<boolean> {
  try {
    await fs.writeFile(file, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
}

async function isStale(file: string): Promise<boolean> {
  try {
    const [text, st] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    const pid = Number(text.trim());
    if (Date.now() - st.mtimeMs > STALE_MS) return true;
    // An empty file: its writer is between create and write; give it the time a start takes.
    return Number.isInteger(pid) && pid > 0 && !pidAlive(pid);
  } catch {
    return false;
  }
}

/** Runs `fn` holding the folder's start lock; waits for it at most `timeoutMs`. */
export async function withStartLock<T>(dir: string, fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const file = join(dir, LOCK);
  const until = Date.now() + timeoutMs;
  while (!(await tryTake(file))) {
    if (await isStale(file)) {
      // Renamed away first: of two that saw it stale, one removes it, the other's rename fails.
      const aside = `${file}.${randomBytes(4).toString('hex')}`;
      await fs.rename(file, aside).then(
        () => fs.rm(aside, { force: true }),
        () => undefined,
      );
      continue;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${file}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    return await fn();
  } finally {
    await fs.rm(file, { force: true });
  }
}
