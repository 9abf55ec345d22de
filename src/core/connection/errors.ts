/** Typed host errors: a string code for programs, a message that says what to do next for people. */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import type { HostErrorInfo } from './state.js';

export type HostErrorCode =
  | 'unknown-server'
  | 'unknown-tool'
  | 'invalid-arguments'
  | 'disabled'
  | 'needs-auth'
  | 'reconnecting'
  | 'command-not-found'
  | 'spawn-failed'
  | 'connect-timeout'
  | 'connect-failed'
  | 'server-exited'
  | 'connection-closed'
  | 'request-timeout'
  | 'cancelled'
  | 'stopped'
  | 'server-error'
  | 'reconnect-failed'
  /** Stopped answering pings (src/core/features/ping.ts); reconnected at once. */
  | 'unresponsive'
  /** An MCP App's resource is missing or not an app. */
  | 'bad-app'
  /** An MCP App asked for something outside what its server may do. */
  | 'app-refused'
  /** A bug in the host itself, caught so one server's failure never takes down the rest. */
  | 'internal';

export class HostError extends Error {
  constructor(
    readonly code: HostErrorCode,
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HostError';
  }

  toInfo(): HostErrorInfo {
    return this.hint === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, hint: this.hint };
  }
}

/** The one way to turn anything thrown into text. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** What a person is shown: the message, then the hint (what to do next) when the error has one. */
export function errorText(err: unknown): string {
  const hint =
    err && typeof err === 'object' && typeof (err as { hint?: unknown }).hint === 'string'
      ? (err as { hint: string }).hint
      : undefined;
  return hint ? `${errorMessage(err)} — ${hint}` : errorMessage(err);
}

/** Node/undici error codes, looked up through `cause` chains (fetch wraps them in "fetch failed"). */
export function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && typeof cur === 'object' && depth < 5; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    cur = (cur as { cause?: unknown }).cause;
  }
  return codes;
}

const TERMINAL_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ECONNREFUSED',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TERMINAL_TEXT =
  /ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ECONNREFUSED|body timeout|SSE stream disconnected|Failed to reconnect SSE stream|fetch failed|socket hang up|other side closed/i;

/**
 * Errors that mean the remote end is gone (not a protocol-level error of one request). Three in a row
 * close a remote transport, so one lost request does not drop a server that is still there.
 */
export function isTerminalNetworkError(err: unknown): boolean {
  if (err instanceof SseError) return err.code === undefined || err.code >= 500 || TERMINAL_TEXT.test(err.message);
  if (errorCodes(err).some((c) => TERMINAL_CODES.has(c))) return true;
  return TERMINAL_TEXT.test(errorMessage(err));
}

/** HTTP 404 carrying JSON-RPC -32001: the server forgot our Streamable HTTP session. */
export function isSessionExpired(err: unknown): boolean {
  return err instanceof StreamableHTTPError && err.code === 404 && /-32001|session/i.test(err.message);
}

export function isUnauthorized(err: unknown): boolean {
  if (err instanceof UnauthorizedError) return true;
  if (err instanceof StreamableHTTPError && err.code === 401) return true;
  if (err instanceof SseError && err.code === 401) return true;
  return /\b401\b.*unauthori[sz]ed|unexpected server response: 401/i.test(errorMessage(err));
}

export function isRequestTimeout(err: unknown): boolean {
  return err instanceof McpError && err.code === ErrorCode.RequestTimeout && /timed out|timeout/i.test(err.message);
}

export function isConnectionClosed(err: unknown): boolean {
  return err instanceof McpError && err.code === ErrorCode.ConnectionClosed;
}
