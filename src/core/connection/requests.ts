/** Per-request options of a call: a fresh timeout per request, reset by progress, cancellation and progress. */
import type { RequestOptions } from '@modelcontextprotocol/server';
import type { CallOptions } from '../host-api.js';
import type { LiveConnection } from './connect.js';
import { HostError, errorMessage, isConnectionClosed, isRequestTimeout, isUnauthorized } from './errors.js';

export function requestOptions(
  opts: CallOptions | undefined,
  defaultTimeoutMs: number,
): RequestOptions & { timeout: number } {
  const o: RequestOptions & { timeout: number } = {
    timeout: opts?.timeoutMs ?? defaultTimeoutMs,
    // A server reporting progress is alive: each progress notification restarts the timer.
    resetTimeoutOnProgress: true,
  };
  if (opts?.signal) o.signal = opts.signal;
  if (opts?.onProgress) {
    const cb = opts.onProgress;
    o.onprogress = (p) =>
      cb({
        progress: p.progress,
        ...(p.total !== undefined ? { total: p.total } : {}),
        ...(p.message !== undefined ? { message: p.message } : {}),
      });
  }
  return o;
}

/** Turns what a failed request threw into a HostError that says what happened and what to do. */
export function callError(
  err: unknown,
  c: { server: string; conn: LiveConnection; what: string; opts: CallOptions | undefined; toolTimeoutMs: number },
  onUnauthorized: (message: string) => void,
): Error {
  const { server, conn, what, opts } = c;
  if (err instanceof HostError) return err;
  if (opts?.signal?.aborted) return new HostError('cancelled', `${what} was cancelled`, undefined, { cause: err });
  if (isRequestTimeout(err)) {
    const ms = opts?.timeoutMs ?? c.toolTimeoutMs;
    return new HostError(
      'request-timeout',
      `${what} on ${server} timed out after ${ms} ms`,
      'Raise the server\'s "toolTimeout" (or MCP_TOOL_TIMEOUT) if it is just slow.',
      { cause: err },
    );
  }
  if (isUnauthorized(err) || isUnauthorized((err as { cause?: unknown } | undefined)?.cause)) {
    const message = `${server} needs authentication: ${errorMessage(err)}`;
    onUnauthorized(message);
    return new HostError('needs-auth', `${what} failed: ${message}`, 'Authenticate the server, then try again.', {
      cause: err,
    });
  }
  if (conn.closedBecause || isConnectionClosed(err)) {
    const why =
      conn.closedBecause ?? (conn.stdio ? `${server} ${conn.stdio.describeExit()}` : `${server} closed the connection`);
    return new HostError(
      conn.stdio ? 'server-exited' : 'connection-closed',
      `${what} failed: ${why}`,
      'The next call reconnects.',
      { cause: err },
    );
  }
  return new HostError('server-error', `${what} on ${server} failed: ${errorMessage(err)}`, undefined, { cause: err });
}
