/**
 * Where the CLI keeps OAuth state: `$XDG_CONFIG_HOME/mcp-host` (else `~/.config/mcp-host`, or
 * `%APPDATA%\mcp-host` on Windows), folder 0700, files 0600, written atomically (exclusive random
 * temp file + rename) so an interrupted write never leaves a half file. `secrets.json` holds tokens and client
 * registrations; `state.json` the needs-auth cache.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { KeyValueStore, SecretStore } from '../core/ports.js';
import { userConfigDir } from '../core/user-dir.js';

/** The same folder the editor keeps its per-workspace tool choices in (core/user-dir.ts). */
export const cliConfigDir = userConfigDir;

/** Tokens for a handful of servers are a few KB; a bigger file is not ours. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** A state file past the limit is still parsed, up to this, to keep what it holds that fits. */
const MAX_SALVAGE_BYTES = 64 * 1024 * 1024;
/** One top-level value of a state file kept in a recovery; bigger ones lose their biggest parts first. */
const MAX_SALVAGED_VALUE_BYTES = MAX_FILE_BYTES / 4;

/** `salvage`: the file's text, when the file is ours but too big or not a JSON object. */
type ReadResult =
  { data: Record<string, unknown>; error?: undefined } | { data?: undefined; error: string; salvage?: string };

const sizeOf = (v: unknown): number => JSON.stringify(v)?.length ?? 0;

/**
 * `value` within `cap`: as it is, or (an object) with its largest members left out until the rest
 * fits, so one server's oversized entry does not take the others with it.
 */
function shrink(value: unknown, cap: number): unknown {
  if (sizeOf(value) <= cap) return value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, unknown> = {};
  let bytes = 2;
  const members = Object.entries(value).map(([k, v]) => [k, v, sizeOf(v) + k.length + 4] as const);
  for (const [k, v, n] of members.sort((a, b) => a[2] - b[2])) {
    if (bytes + n > cap) break;
    out[k] = v;
    bytes += n;
  }
  return out;
}

/** What a damaged state file still holds: each top-level entry that parses and fits. */
function salvaged(text: string): { data: Record<string, unknown>; kept: number; of: number } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { data: {}, kept: 0, of: 0 };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { data: {}, kept: 0, of: 0 };
  const data: Record<string, unknown> = {};
  const entries = Object.entries(v);
  for (const [k, e] of entries) {
    const small = shrink(e, MAX_SALVAGED_VALUE_BYTES);
    if (small !== undefined) data[k] = small;
  }
  return {
    data: shrink(data, MAX_FILE_BYTES / 2) as Record<string, unknown>,
    kept: Object.keys(data).length,
    of: entries.length,
  };
}

/**
 * A JSON object in a file only the user can read; every write replaces the file atomically through
 * an exclusively created, randomly named temp file (a planted symlink at a predictable name would
 * otherwise be followed). A file that exists but cannot be read or parsed is never overwritten: it
 * may hold every other server's tokens. A file or folder others can read is warned about and fixed.
 */
class PrivateJsonFile {
  private chain: Promise<void> = Promise.resolve();
  private warned = false;

  /**
   * @param recoverable the file holds only what can be learnt again (state, caches, never tokens):
   * one that is too big or not a JSON object is started anew, keeping the entries that still read.
   */
  constructor(
    private readonly dir: string,
    private readonly file: string,
    private readonly warn: (message: string) => void,
    private readonly recoverable = false,
  ) {}

  get path(): string {
    return join(this.dir, this.file);
  }

  private load(): ReadResult {
    let fd: number;
    try {
      fd = openSync(this.path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? { data: {} } : { error: `cannot open it (${code ?? (e as Error).message})` };
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return { error: 'it is not a regular file' };
      if (st.size > MAX_FILE_BYTES) {
        const error = `it is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`;
        if (!this.recoverable) return { error };
        return { error, salvage: st.size <= MAX_SALVAGE_BYTES ? readFileSync(fd, 'utf8') : '' };
      }
      if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
        if (!this.warned)
          this.warn(
            `${this.path} was readable by other users (mode ${(st.mode & 0o777).toString(8)}); changed to 600. Sign in again if you think its tokens were seen.`,
          );
        this.warned = true;
        fchmodSync(fd, 0o600);
      }
      const text = readFileSync(fd, 'utf8');
      const salvage = this.recoverable ? { salvage: text } : {};
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch (e) {
        return { error: `it is not valid JSON (${(e as Error).message})`, ...salvage };
      }
      return v && typeof v === 'object' && !Array.isArray(v)
        ? { data: v as Record<string, unknown> }
        : { error: 'it does not hold a JSON object', ...salvage };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * A recoverable file that is too big or damaged, started anew: what still reads is written back
   * (the old file kept beside it as `.bad`), and the log says so once. Without this every later
   * run warned, kept nothing and refused to write.
   */
  private loadRecovering(): ReadResult {
    const r = this.load();
    if (r.error === undefined || r.salvage === undefined) return r;
    const { data, kept, of } = salvaged(r.salvage);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    renameSync(this.path, `${this.path}.bad`);
    this.write(data);
    this.warn(
      `${this.path} could not be used (${r.error}); it was started anew${of ? `, keeping ${kept} of its ${of} entries` : ''}. The old file is ${this.path}.bad.`,
    );
    this.warned = true;
    return { data };
  }

  /** The stored object; `{}` when the file is missing, or unreadable (reported once). */
  read(): Record<string, unknown> {
    const r = this.loadRecovering();
    if (r.error === undefined) return r.data;
    if (!this.warned) this.warn(`${this.path} cannot be read: ${r.error}. It is left as it is; fix or remove it.`);
    this.warned = true;
    return {};
  }

  /** Read-modify-write, serialised within the process; re-reads the file so other runs' writes survive. */
  change(fn: (data: Record<string, unknown>) => void): Promise<void> {
    this.chain = this.chain
      .catch(() => undefined)
      .then(() => {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        // mkdir's mode only applies to folders it creates; an existing one is tightened too.
        chmodSync(this.dir, 0o700);
        const r = this.loadRecovering();
        if (r.error !== undefined) {
          throw new Error(
            `${this.path} cannot be read (${r.error}), so it was not overwritten: it may hold other servers' sign-ins. Fix or remove it, then try again.`,
          );
        }
        const data = r.data;
        fn(data);
        this.write(data);
      });
    return this.chain;
  }

  /** Atomically, through an exclusively created temp file (see the class comment). */
  private write(data: Record<string, unknown>): void {
    const tmp = `${this.path}.${randomBytes(12).toString('hex')}.tmp`;
    // wx = O_CREAT|O_EXCL: fails on anything already there, a symlink included.
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeFileSync(fd, `${JSON.stringify(data, null, 2)}\n`);
      fsyncSync(fd);
    } catch (e) {
      closeSync(fd);
      rmSync(tmp, { force: true });
      throw e;
    }
    closeSync(fd);
    renameSync(tmp, this.path);
  }
}

export class FileSecretStore implements SecretStore {
  private readonly file: PrivateJsonFile;

  constructor(dir: string, warn: (message: string) => void = () => {}) {
    this.file = new PrivateJsonFile(dir, 'secrets.json', warn);
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

  constructor(dir: string, warn: (message: string) => void = () => {}) {
    this.file = new PrivateJsonFile(dir, 'state.json', warn, true);
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
