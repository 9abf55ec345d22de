/**
 * The POSIX sh script the sandbox wrapper runs: the server's own environment, the proxy variables
 * exported inside (never on a command line), then the server itself under its private TMPDIR.
 */
import { INSTANCE_ENV, OWNER_ENV } from '../process-marks.js';
import { splitServerEnv, type SplitEnv } from './host-env.js';

/** Names the proxy variables travel under until the sandboxed shell exports them. */
const ENV_PREFIX = 'MCP_HOST_SANDBOX_';

/** Single quotes for POSIX sh: the library runs the wrapped command through a shell. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface WrapperCommandInput {
  spec: { file: string; args: string[] };
  /** The server's own temporary folder (server-tmp.ts). */
  tmp: string;
  /** The proxy client's variables (HTTP_PROXY and the rest, with credentials). */
  proxyEnv: Record<string, string>;
  /** What the server would get unsandboxed. */
  serverEnv: Record<string, string>;
  /** More variables the wrapper itself needs (the seccomp layer's). */
  wrapperEnv: Record<string, string>;
}

/** The script, and the environment split between the wrapper process and the server inside. */
export function wrapperCommand(input: WrapperCommandInput): { command: string; split: SplitEnv } {
  const { spec, tmp, proxyEnv, serverEnv, wrapperEnv } = input;
  // The proxy variables are exported inside: the runtime sets them without credentials, and
  // the credentials travel in the environment, not on a command line. TMPDIR: the server's own
  // temporary folder, writable and hidden from the others (server-tmp.ts).
  const exports = Object.keys(proxyEnv).map((k) => `export ${k}="$${ENV_PREFIX}${k}"; unset ${ENV_PREFIX}${k}`);
  const prefixed = Object.fromEntries(Object.entries(proxyEnv).map(([k, v]) => [`${ENV_PREFIX}${k}`, v]));
  // The markers stay on the wrapper too: the process-tree stop and the host-death watcher
  // (host-reaper.ts) find bwrap and sh by them.
  const marker: Record<string, string> = {};
  for (const k of [INSTANCE_ENV, OWNER_ENV]) if (serverEnv[k] !== undefined) marker[k] = serverEnv[k];
  const split = splitServerEnv(serverEnv, { ...prefixed, ...marker, ...wrapperEnv });
  // The server's own variables first, the proxy's after them: its HTTP_PROXY cannot replace ours.
  const command = [
    ...split.inside,
    ...exports,
    `TMPDIR=${shellQuote(tmp)} exec ${[spec.file, ...spec.args].map(shellQuote).join(' ')}`,
  ].join('\n');
  return { command, split };
}
