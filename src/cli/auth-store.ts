/**
 * Where the CLI keeps OAuth state: `$XDG_CONFIG_HOME/mcp-host` (else `~/.config/mcp-host`, or
 * `%APPDATA%\mcp-host` on Windows), folder 0700, files 0600, written atomically (temp file +
 * rename) so an interrupted write never leaves a half file. `secrets.json` holds tokens and client
 * registrations; `state.json` the needs-auth cache.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyValueStore, SecretStore } from '../core/ports.js';
import { userConfigDir } from '../core/user-dir.js';

/** The same folder the editor keeps its per-workspace tool choices in (core/user-dir.ts). */
export const cliConfigDir = userConfigDir;

/** A JSON object in a file only the user can read; every write replaces the file atomically. */
class PrivateJsonFile {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly file: string,
  ) {}

  get path(): string {
    return join(this.dir, this.file);
  }

  read(): Record<string, unknown> {
    try {
      const v: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  /** Read-modify-write, serialised within the process; re-reads the file so other runs' writes survive. */
  change(fn: (data: Record<string, unknown>) => void): Promise<void> {
    this.chain = this.chain
      .catch(() => undefined)
      .then(() => {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        // mkdir's mode only applies to folders it creates; an existing one is tightened too.
        chmodSync(this.dir, 0o700);
        const data = this.read();
        fn(data);
        const tmp = `${this.path}.${process.pid}.tmp`;
        writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
        chmodSync(tmp, 0o600);
        renameSync(tmp, this.path);
      });
    return this.chain;
  }
}

export class FileSecretStore implements SecretStore {
  private readonly file: PrivateJsonFile;

  constructor(dir: string) {
    this.file = new PrivateJsonFile(dir, 'secrets.json');
  }

  get path(): string {
    return this.file.path;
  }

  async get(key: string): Promise<string | undefined> {
    const v = this.file.read()[key];
    return typeof v === 'string' ? v : undefined;
  }

  store(key: string, value: string): Promise<void> {
    return this.file.change((d) => {
      d[key] = value;
    });
  }

  delete(key: string): Promise<void> {
    return this.file.change((d) => {
      delete d[key];
    });
  }
}

export class FileKeyValueStore implements KeyValueStore {
  private readonly file: PrivateJsonFile;
  private data: Record<string, unknown>;

  constructor(dir: string) {
    this.file = new PrivateJsonFile(dir, 'state.json');
    this.data = this.file.read();
  }

  get<T>(key: string): T | undefined {
    return this.data[key] as T | undefined;
  }

  update(key: string, value: unknown): Promise<void> {
    this.data = { ...this.data, [key]: value };
    return this.file.change((d) => {
      d[key] = value;
    });
  }
}
