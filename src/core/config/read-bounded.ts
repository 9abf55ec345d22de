/**
 * Reading a file a repository (or anyone) may have planted: regular files only, up to a size cap,
 * opened without blocking so a FIFO cannot hang the host, read through the opened handle so the
 * checked file is the one read.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

export type BoundedRead = { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'error'; message: string };

function size(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MB` : `${Math.round(n / 1024)} KB`;
}

/** UTF-8 text of `file`, or why it was not read. ENOENT/ENOTDIR are `missing`. */
export async function readBoundedFile(file: string, maxBytes: number): Promise<BoundedRead> {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever (0 on Windows).
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, flags);
    const st = await handle.stat();
    if (st.isDirectory())
      return {
        kind: 'error',
        message: 'Cannot read the file (EISDIR): it is a folder. Check that it is a file you can read.',
      };
    if (!st.isFile())
      return {
        kind: 'error',
        message: 'Not a regular file (a device, FIFO or folder); only regular files are read. Replace it with a file.',
      };
    if (st.size > maxBytes)
      return {
        kind: 'error',
        message: `The file is ${size(st.size)}, over the ${size(maxBytes)} limit; it was not read.`,
      };
    // A file still growing after the check is cut at the cap + 1 byte, and refused.
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buf.length)
        return {
          kind: 'error',
          message: `The file grew while it was read (over ${size(Math.min(st.size, maxBytes))}); it was not used. Try again.`,
        };
    }
    return { kind: 'text', text: buf.subarray(0, filled).toString('utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return {
      kind: 'error',
      message: `Cannot read the file (${code ?? (e as Error).message}). Check that it is a file you can read.`,
    };
  } finally {
    await handle?.close();
  }
}
