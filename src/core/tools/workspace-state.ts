/**
 * Per-workspace state both front ends can read: `<user config dir>/workspaces/<sha256 of the
 * workspace path>.json` (folder 0700, file 0600, replaced atomically). The editor and `mcp-host
 * --workspace DIR` name the same folder, so a tool switched off in the tree is off in the CLI too
 * (VS Code's own workspaceState lives in the editor's database, which the CLI cannot read).
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
    this.data = { ...this.data, [key]: value };
    this.chain = this.chain
      .catch(() => undefined)
      .then(() => {
        const dir = join(this.path, '..');
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        // Other keys written meanwhile by another process survive: re-read, then set ours.
        const onDisk = { ...this.load(), workspace: resolve(this.workspace), [key]: value };
        const tmp = `${this.path}.${process.pid}.tmp`;
        writeFileSync(tmp, `${JSON.stringify(onDisk, null, 2)}\n`, { mode: 0o600 });
        chmodSync(tmp, 0o600);
        renameSync(tmp, this.path);
      });
    return this.chain;
  }
}
