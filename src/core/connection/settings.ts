/** Timeouts and pool sizes, from options and the documented MCP_* environment overrides. */
import type { HostOptions } from '../host-api.js';
import type { Logger } from '../ports.js';
import type { ServerConfig } from '../config/types.js';
import { SETTING_DEFAULTS } from '../setting-defaults.js';

export const DEFAULT_CONNECT_TIMEOUT_MS: number = SETTING_DEFAULTS['timeouts.connect'];
export const DEFAULT_TOOL_TIMEOUT_MS: number = SETTING_DEFAULTS['timeouts.toolCall'];
export const DEFAULT_LOCAL_CONCURRENCY: number = SETTING_DEFAULTS['concurrency.local'];
export const DEFAULT_REMOTE_CONCURRENCY: number = SETTING_DEFAULTS['concurrency.remote'];
/** Reconnect attempts for a remote server before it is marked failed. */
export const MAX_RECONNECT_ATTEMPTS = 5;

export interface ConnectionSettings {
  connectTimeoutMs: number;
  toolTimeoutMs: number;
  localConcurrency: number;
  remoteConcurrency: number;
  /** Backoff before reconnect attempt n (1-based): base * 2^(n-1), capped. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxReconnectAttempts: number;
}

function positiveInt(env: Record<string, string | undefined>, key: string, log: Logger): number | undefined {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    log.warn(`${key}=${JSON.stringify(raw)} is not a positive whole number; ignoring it`);
    return undefined;
  }
  return n;
}

export function readSettings(options: HostOptions): ConnectionSettings {
  const env = options.env ?? process.env;
  const log = options.logger;
  return {
    // The environment overrides the editor settings (package.json documents this order).
    connectTimeoutMs: positiveInt(env, 'MCP_TIMEOUT', log) ?? options.timeouts?.connectMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    toolTimeoutMs: positiveInt(env, 'MCP_TOOL_TIMEOUT', log) ?? options.timeouts?.toolCallMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    localConcurrency:
      positiveInt(env, 'MCP_SERVER_CONNECTION_BATCH_SIZE', log) ??
      options.concurrency?.local ??
      DEFAULT_LOCAL_CONCURRENCY,
    remoteConcurrency:
      positiveInt(env, 'MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE', log) ??
      options.concurrency?.remote ??
      DEFAULT_REMOTE_CONCURRENCY,
    backoffBaseMs: options.backoff?.baseMs ?? 1000,
    backoffMaxMs: options.backoff?.maxMs ?? 30_000,
    maxReconnectAttempts: options.backoff?.maxAttempts ?? MAX_RECONNECT_ATTEMPTS,
  };
}

/** A server entry's own `timeout` wins over everything else. */
export function connectTimeoutFor(config: ServerConfig, s: ConnectionSettings): number {
  return config.timeout !== undefined && config.timeout > 0 ? config.timeout : s.connectTimeoutMs;
}

/**
 * The timeout of one tool call: an explicit per-call value (CLI `--timeout`) first, then the
 * server entry's `toolTimeout`, then MCP_TOOL_TIMEOUT / the setting (already in `s`).
 */
export function toolTimeoutFor(config: ServerConfig, s: ConnectionSettings, explicitMs?: number): number {
  if (explicitMs !== undefined) return explicitMs;
  return config.toolTimeout !== undefined && config.toolTimeout > 0 ? config.toolTimeout : s.toolTimeoutMs;
}

/** `opts` with its `timeoutMs` filled in by toolTimeoutFor. */
export function withToolTimeout<T extends { timeoutMs?: number }>(
  opts: T | undefined,
  config: ServerConfig,
  s: ConnectionSettings,
): T & { timeoutMs: number } {
  return { ...(opts ?? ({} as T)), timeoutMs: toolTimeoutFor(config, s, opts?.timeoutMs) };
}

export function backoffDelay(attempt: number, s: ConnectionSettings): number {
  return Math.min(s.backoffBaseMs * 2 ** Math.max(0, attempt - 1), s.backoffMaxMs);
}

export function isRemote(config: ServerConfig): boolean {
  return config.type === 'sse' || config.type === 'http' || config.type === 'ws';
}
