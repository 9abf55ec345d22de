/**
 * The environment of the sandbox's own wrapper (sh, bwrap, socat), which runs on the host before
 * any namespace exists. A server entry's `env` (and its `envFile`) must not reach it: a `PATH`
 * naming the repository's own `sh`, or an `LD_PRELOAD`, would run code with the user's full rights
 * around the sandbox. So the wrapper gets a fixed, minimal environment, and the server's variables
 * travel under inert names (no program reads `MCP_HOST_SANDBOX_ENV_PATH`) until the sandboxed shell
 * exports them under their own names, inside, just before it runs the server.
 */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** The PATH of everything the sandbox runs on the host: system folders only. */
export const HOST_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What the wrapper keeps of this process's own environment (never of the entry's). */
const HOST_KEEP = ['HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TERM'] as const;

const SERVER_PREFIX = 'MCP_HOST_SANDBOX_ENV_';
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An executable named `cmd` in one of `path`'s folders, as an absolute path. */
export function findOn(cmd: string, path: string): string | undefined {
  for (const dir of path.split(':')) {
    if (!dir.startsWith('/')) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface SplitEnv {
  /** The whole environment of the wrapper process: minimal, plus the server's under inert names. */
  host: Record<string, string>;
  /** Shell lines, run inside the sandbox, that give the server exactly its own environment. */
  inside: string[];
  /** Variables a POSIX shell cannot set (names that are not shell identifiers). */
  dropped: string[];
}

/**
 * Splits `server` (the environment the server would get unsandboxed) into the wrapper's and the
 * server's. `extra` goes to the wrapper as it is (the instance marker, the proxy's variables).
 */
export function splitServerEnv(
  server: Record<string, string>,
  extra: Record<string, string>,
  own: NodeJS.ProcessEnv = process.env,
): SplitEnv {
  const host: Record<string, string> = { PATH: HOST_PATH };
  for (const k of HOST_KEEP) {
    const v = own[k];
    if (v !== undefined) host[k] = v;
  }
  const inside: string[] = [];
  const dropped: string[] = [];
  for (const [k, v] of Object.entries(server)) {
    if (!SHELL_NAME.test(k)) {
      dropped.push(k);
      continue;
    }
    host[`${SERVER_PREFIX}${k}`] = v;
    inside.push(`export ${k}="$${SERVER_PREFIX}${k}"; unset ${SERVER_PREFIX}${k}`);
  }
  // What the wrapper had and the server did not ask for is not the server's.
  const gone = ['PATH', ...HOST_KEEP].filter((k) => host[k] !== undefined && !(k in server));
  if (gone.length) inside.push(`unset ${gone.join(' ')}`);
  Object.assign(host, extra);
  return { host, inside, dropped };
}
