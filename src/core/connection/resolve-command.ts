/**
 * Finds the executable for a stdio server the way a shell would, and says clearly when it cannot.
 * On Windows, `.cmd`/`.bat` shims (npx, uvx, pnpm...) cannot be spawned directly (Node refuses
 * since CVE-2024-27980), so they go through `cmd.exe /d /s /c` with every argument escaped.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HostError } from './errors.js';

export interface ResolvedCommand {
  file: string;
  args: string[];
  /** Set when the command line was pre-quoted for cmd.exe. */
  windowsVerbatimArguments?: boolean;
}

export interface ResolveEnv {
  platform: NodeJS.Platform;
  /** The environment the child will get (its PATH is searched). */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** True when `p` is an existing regular file we may execute. Injectable for tests. */
  isExecutable?: (p: string) => boolean;
  /** The start of a batch file, to see whether it forwards its arguments; undefined when unreadable. Injectable for tests. */
  readBatch?: (p: string) => string | undefined;
}

function defaultReadBatch(p: string): string | undefined {
  try {
    const fd = fs.openSync(p, 'r');
    try {
      const buf = Buffer.alloc(64 * 1024);
      return buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('latin1');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * A shim that passes its arguments on (`%*`, `%1`…: npm's `node_modules\.bin\*.cmd`, Node's own
 * `npx.cmd`) has cmd.exe parse them a second time when it expands them, where an argument's
 * `\"` no longer reads as escaped and the metacharacters after it run. Those get the caret
 * escaping twice, as cross-spawn does for npm shims (here decided by what the file does rather
 * than where it lives, so Node's `npx.cmd` is covered too).
 */
function forwardsArguments(text: string | undefined): boolean {
  return text !== undefined && /%\*|%~?[a-z]*[0-9]/i.test(text);
}

function defaultIsExecutable(platform: NodeJS.Platform): (p: string) => boolean {
  return (p) => {
    try {
      const st = fs.statSync(p);
      if (!st.isFile()) return false;
      if (platform === 'win32') return true;
      fs.accessSync(p, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
}

function envValue(env: Record<string, string | undefined>, key: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[key];
  // Windows environment names are case-insensitive ("Path" is common).
  const k = Object.keys(env).find((n) => n.toUpperCase() === key);
  return k === undefined ? undefined : env[k];
}

export function notFoundError(command: string): HostError {
  return new HostError(
    'command-not-found',
    `command not found: ${command} — is it installed and on PATH? GUI-launched editors may not see your shell's PATH (nvm/fnm/volta/asdf)`,
    'Use the absolute path of the command in the server entry, or set PATH in its "env".',
  );
}

/** Searches PATH (and PATHEXT on Windows); throws `command-not-found` with a hint. */
export function findExecutable(command: string, e: ResolveEnv): string {
  const p = e.platform === 'win32' ? path.win32 : path.posix;
  const isExec = e.isExecutable ?? defaultIsExecutable(e.platform);
  const exts =
    e.platform === 'win32'
      ? [
          '',
          ...(envValue(e.env, 'PATHEXT', e.platform) ?? '.COM;.EXE;.BAT;.CMD')
            .split(';')
            .filter(Boolean)
            .map((x) => x.toLowerCase()),
        ]
      : [''];
  const withExts = (base: string): string | undefined => {
    // On Windows a bare name without extension is not runnable, so try PATHEXT first.
    const order = e.platform === 'win32' && p.extname(base) === '' ? [...exts.slice(1), ''] : exts;
    for (const ext of order) {
      const candidate = base + ext;
      if (isExec(candidate)) return candidate;
    }
    return undefined;
  };
  const hasSep = command.includes('/') || (e.platform === 'win32' && command.includes('\\'));
  if (hasSep || p.isAbsolute(command)) {
    const abs = p.isAbsolute(command) ? command : p.resolve(e.cwd ?? process.cwd(), command);
    const found = withExts(abs);
    if (found) return found;
    throw notFoundError(command);
  }
  const dirs = (envValue(e.env, 'PATH', e.platform) ?? '').split(e.platform === 'win32' ? ';' : ':').filter(Boolean);
  for (const dir of dirs) {
    const found = withExts(p.join(dir.replace(/^"(.*)"$/, '$1'), command));
    if (found) return found;
  }
  throw notFoundError(command);
}

// cmd.exe metacharacters; escaped with ^ (same rules as cross-spawn).
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

function escapeCmdArg(arg: string, twice: boolean): string {
  // First quote for CommandLineToArgvW, then caret-escape for cmd.exe (once per parse).
  let s = arg.replace(/(\\*)"/g, '$1$1\\"');
  s = s.replace(/(\\*)$/, '$1$1');
  s = `"${s}"`;
  s = s.replace(CMD_META, '^$1');
  return twice ? s.replace(CMD_META, '^$1') : s;
}

function escapeCmdCommand(file: string): string {
  return file.replace(CMD_META, '^$1');
}

/** Resolves `command` + `args` to what `child_process.spawn` should run on this platform. */
export function resolveCommand(command: string, args: string[], e: ResolveEnv): ResolvedCommand {
  const file = findExecutable(command, e);
  if (e.platform === 'win32' && /\.(cmd|bat)$/i.test(file)) {
    const comspec = envValue(e.env, 'COMSPEC', e.platform) ?? 'cmd.exe';
    const twice = forwardsArguments((e.readBatch ?? defaultReadBatch)(file));
    const line = [escapeCmdCommand(file), ...args.map((a) => escapeCmdArg(a, twice))].join(' ');
    return { file: comspec, args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
  }
  return { file, args };
}
