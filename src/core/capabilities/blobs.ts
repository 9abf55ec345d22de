/**
 * Binary resource contents go to files named by their content hash, so a result never holds a
 * large base64 string and the same blob read twice is stored once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
  'audio/wav': '.wav',
  'audio/mpeg': '.mp3',
  'application/pdf': '.pdf',
  'application/zip': '.zip',
  'application/json': '.json',
  'text/plain': '.txt',
};

/** Decodes a base64 blob and stores it in `blobDir`; returns the file path and byte size. */
export async function writeBlob(
  blobDir: string,
  base64: string,
  mimeType?: string,
): Promise<{ path: string; size: number }> {
  const bytes = Buffer.from(base64, 'base64');
  const hash = createHash('sha256').update(bytes).digest('hex');
  const ext = (mimeType && EXTENSIONS[mimeType.split(';')[0]!.trim().toLowerCase()]) || '.bin';
  const path = join(blobDir, hash + ext);
  try {
    const existing = await stat(path);
    if (existing.size === bytes.length) return { path, size: bytes.length };
  } catch {
    // Not there yet.
  }
  await mkdir(blobDir, { recursive: true, mode: 0o700 });
  // Write then rename, so a concurrent reader never sees a half-written file under the final name.
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  return { path, size: bytes.length };
}
