/**
 * Interfaces the editor layer (or the CLI, or a test) implements for the core. The core never
 * reaches for the editor or the user's machine state except through these.
 */

/** A `${input:id}` declaration from a file's `inputs` (VS Code format, every type it defines). */
export interface InputDeclaration {
  id: string;
  /** `promptString` (typed; the default), `pickString` (one of `options`), `command` (a command's result). */
  type: 'promptString' | 'pickString' | 'command';
  description?: string;
  /** promptString: hide what is typed and keep the answer in secret storage. */
  password?: boolean;
  /** promptString / pickString: the value offered first. */
  default?: string;
  /** pickString: the choices (`label` shown, `value` used). */
  options?: { label: string; value: string }[];
  /** command: the command id and its arguments. */
  command?: string;
  args?: unknown;
}

export interface Disposable {
  dispose(): void;
}

/** Log sink. Implementations must not be handed secrets; callers redact first (see redact.ts). */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Where secrets live: VS Code SecretStorage in the editor, a 0600 file in the CLI. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Small non-secret persistent state (VS Code globalState / workspaceState, a JSON file in the CLI). */
export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Promise<void>;
}

/** Opens a URL in the user's browser. Resolves false when the user or the platform refused. */
export interface BrowserOpener {
  open(url: string): Promise<boolean>;
}

/** Time, injectable so backoff, expiry and the needs-auth cache can be tested without waiting. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): Disposable;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return { dispose: () => clearTimeout(handle) };
  },
};

/** Resolves `${input:id}` variables (VS Code `inputs`); password inputs are kept in SecretStorage. */
export interface InputResolver {
  /** `declaration` is the file's `inputs` entry (absent for formats without `inputs`). */
  resolve(
    id: string,
    context: { file: string; description?: string; password?: boolean; declaration?: InputDeclaration },
  ): Promise<string | undefined>;
}

export const nullLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** A logger that prefixes every line (e.g. with the server's name). */
export function prefixed(logger: Logger, prefix: string): Logger {
  return {
    trace: (m) => logger.trace(`${prefix} ${m}`),
    debug: (m) => logger.debug(`${prefix} ${m}`),
    info: (m) => logger.info(`${prefix} ${m}`),
    warn: (m) => logger.warn(`${prefix} ${m}`),
    error: (m) => logger.error(`${prefix} ${m}`),
  };
}
