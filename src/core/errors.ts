/**
 * The one error base of MCP Host: every error a person may read carries a message and, when there
 * is one, a hint on what to do next, typed (`hintOf`) instead of looked up by shape. `HostError` adds
 * the string code programs switch on; other areas (CLI, config edits, auth, registry) extend the base.
 */

import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** An error that may say what to do next. */
export class McpHostError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The hint of an error from this code base, or undefined (any other thrown value has none). */
export function hintOf(err: unknown): string | undefined {
  return err instanceof McpHostError && err.hint ? err.hint : undefined;
}

/** A serialisable error: code for programs, message (with what to do next) for people. */
export interface HostErrorInfo {
  code: HostErrorCode;
  message: string;
  hint?: string;
}

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
  /** A remote server's headersHelper failed, hung or printed something that is not headers. */
  | 'headers-helper'
  /** A bug in the host itself, caught so one server's failure never takes down the rest. */
  | 'internal';

export class HostError extends McpHostError {
  constructor(
    readonly code: HostErrorCode,
    message: string,
    hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, hint, options);
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
  const hint = hintOf(err);
  return hint ? `${errorMessage(err)} — ${hint}` : errorMessage(err);
}

/**
 * A request the SDK gave up waiting for (its own timeout, not a server's error). Here, below every
 * subsystem, because the connection and the ping feature both ask (connection/errors.ts re-exports it).
 */
export function isRequestTimeout(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout && /timed out|timeout/i.test(err.message);
}
