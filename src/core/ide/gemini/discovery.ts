/**
 * Gemini CLI's discovery file (its "IDE companion" interface): `os.tmpdir()/gemini/ide/
 * gemini-ide-server-<idePid>-<port>.json`, where `idePid` is the editor process the CLI finds by
 * walking up from its shell (or reads from `GEMINI_CLI_IDE_PID`). It carries the auth token, so
 * it is written like every private file of the host (0700 folder, 0600 file, temp file + rename).
 * Gemini CLI 0.61.0 also skips a file another user owns.
 */
import { promises as fs } from 'node:fs';
import { delimiter } from 'node:path';
import { geminiDiscoveryDir } from '../../user-dir.js';
import { ensurePrivateDir, removeFileSync, writePrivateFile } from '../../private-file.js';

/** The JSON fields the interface specification requires. */
export interface GeminiDiscoveryContent {
  port: number;
  /** Every workspace root, joined with the OS path delimiter; the CLI refuses a cwd outside them. */
  workspacePath: string;
  authToken: string;
  ideInfo: { name: string; displayName: string };
}

/** `os.tmpdir()/gemini/ide`, the only folder Gemini CLI looks in. */
export function defaultDiscoveryDir(): string {
  // user-dir.ts owns the path, so the sandbox hides the same folder.
  return geminiDiscoveryDir();
}

export function discoveryFileName(idePid: number, port: number): string {
  return `gemini-ide-server-${idePid}-${port}.json`;
}

export function joinWorkspacePaths(paths: string[]): string {
  return paths.join(delimiter);
}

export async function writeDiscoveryFile(
  dir: string,
  idePid: number,
  content: GeminiDiscoveryContent,
): Promise<string> {
  await ensurePrivateDir(dir);
  return writePrivateFile(dir, discoveryFileName(idePid, content.port), JSON.stringify(content));
}

export async function removeDiscoveryFile(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

export { removeFileSync as removeDiscoveryFileSync };
