/** Typed OAuth errors. Messages are written for people and never carry a token or a code. */
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { redactKnownValues } from '../redact.js';
import { McpHostError } from '../errors.js';

export type AuthErrorCode =
  | 'config'
  | 'discovery'
  | 'denied'
  | 'timeout'
  | 'state-mismatch'
  | 'cancelled'
  | 'browser'
  | 'token'
  | 'callback-port'
  | 'issuer-mismatch'
  | 'unsafe-url';

/** A failure of the explicit sign-in flow (or of a configured value it needs). */
export class AuthError extends McpHostError {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

/**
 * Thrown from a background connection when the user has to sign in. It extends the SDK's
 * `UnauthorizedError`, so the connection's `instanceof UnauthorizedError` check puts the
 * server in `needs-auth` without having to know about this module.
 */
export class AuthRequiredError extends UnauthorizedError {
  constructor(
    readonly server: string,
    readonly reason:
      'no-tokens' | 'refresh-failed' | 'step-up' | 'recently-failed' | 'authorization-needed' | 'no-client-credentials',
  ) {
    super(
      reason === 'no-client-credentials'
        ? `${server} needs its client credentials (run "Authenticate" on it to enter the client secret or private key).`
        : `${server} needs you to sign in (run "Authenticate" on it).`,
    );
    this.name = 'AuthRequiredError';
  }
}

/** True for anything that should put a server in `needs-auth` rather than `failed`. */
export function isAuthRequired(err: unknown): boolean {
  if (err instanceof UnauthorizedError) return true;
  // The SDK gives up on a second 403 insufficient_scope with this error; it needs a new sign-in.
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return e?.code === 403 && typeof e.message === 'string' && /upscoping|insufficient_scope/i.test(e.message);
}

/** Removes every known secret value from a message (belt and braces for errors echoed by servers); core/redact.ts does the work. */
export function redact(message: string, secrets: (string | undefined)[]): string {
  return redactKnownValues(
    message,
    secrets.filter((s): s is string => s !== undefined),
  );
}
