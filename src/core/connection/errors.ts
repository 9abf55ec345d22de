/** What connection failures mean (terminal network errors, expired sessions, 401s); the error base is core/errors.ts. */
import { UnauthorizedError, SseError, SdkErrorCode, SdkError, SdkHttpError } from '@modelcontextprotocol/client';

export {
  HostError,
  McpHostError,
  errorMessage,
  errorText,
  hintOf,
  isRequestTimeout,
  type HostErrorCode,
  type HostErrorInfo,
} from '../errors.js';
import { errorMessage } from '../errors.js';

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
  return err instanceof SdkHttpError && err.status === 404 && /-32001|session/i.test(err.message);
}

export function isUnauthorized(err: unknown): boolean {
  if (err instanceof UnauthorizedError) return true;
  if (err instanceof SdkHttpError && err.status === 401) return true;
  if (err instanceof SseError && err.code === 401) return true;
  return /\b401\b.*unauthori[sz]ed|unexpected server response: 401/i.test(errorMessage(err));
}

export function isConnectionClosed(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed;
}
