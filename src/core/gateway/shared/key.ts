/**
 * Which `serve` sessions may share one gateway, and where that gateway's private folder is.
 * Sessions share when they would start the same servers the same way: the same folder (its
 * `.mcp.json`), the same options that pick or start servers, and the same variables the config
 * reads servers' commands and secrets through (`HOME`, `PATH`, every `MCP_HOST_*`), and where its
 * telemetry goes (every `OTEL_*`: a session must not have its calls exported elsewhere). What each
 * session may differ in (its profile, its tool listing) travels with its connection instead
 * (hello.ts). Other variables come from the session that started the gateway (docs/gateway.md).
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpHostHome } from '../../user-dir.js';

/** Variables of `serve` itself: they steer the sharing, not the servers. */
export const SHARE_ENV = 'MCP_HOST_SERVE_SHARE';
export const GRACE_ENV = 'MCP_HOST_SERVE_GRACE_MS';
export const DAEMON_ENV = 'MCP_HOST_SERVE_DAEMON';
/** The host-death watcher's marker (connection/host-reaper.ts): whoever launched this serve, not the servers' config. */
const OWNER_ENV = 'MCP_HOST_OWNER';
const NOT_KEYED = new Set([SHARE_ENV, GRACE_ENV, DAEMON_ENV, OWNER_ENV]);

/** Default grace period: an agent restarted within it finds its servers still running. */
export const DEFAULT_GRACE_MS = 30_000;

export interface ShareInput {
  /** The folder serve runs in, resolved. */
  cwd: string;
  /** The server-picking options (`--exclude`, `--allow-project-servers`, `--config`…), as parsed. */
  options: Record<string, unknown>;
  env: Record<string, string | undefined>;
}

export function shareKey(input: ShareInput): string {
  const env = Object.entries(input.env)
    .filter(
      ([k, v]) =>
        v !== undefined &&
        (k === 'HOME' || k === 'PATH' || k.startsWith('MCP_HOST_') || k.startsWith('OTEL_')) &&
        !NOT_KEYED.has(k),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = JSON.stringify({ cwd: input.cwd, options: input.options, env, platform: process.platform });
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

/** `$MCP_HOST_HOME/serve/<key>`: the gateway's discovery file, start lock and log (0700). */
export function shareDir(env: Record<string, string | undefined>, key: string): string {
  return join(mcpHostHome(env), 'serve', key);
}

/**
 * Where the gateway listens: a Unix socket in its private folder (only this user can reach it),
 * in a private folder under the temp dir when that path is past the socket path limit (about 104
 * bytes), a named pipe on Windows (the token of hello.ts guards it there).
 */
export function socketPath(dir: string, key: string): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\mcp-host-serve-${key}`;
  const own = join(dir, 'gateway.sock');
  if (Buffer.byteLength(own) <= 100) return own;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join(tmpdir(), `mcp-host-${uid}`, `${key}.sock`);
}

/** The grace period from `MCP_HOST_SERVE_GRACE_MS` (milliseconds, 0 allowed), else the default. */
export function graceMs(env: Record<string, string | undefined>): number {
  const v = env[GRACE_ENV];
  if (v === undefined || v.trim() === '') return DEFAULT_GRACE_MS;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_GRACE_MS;
}
