/** The error a background connection throws when the user has to sign in. */
import { UnauthorizedError } from '@modelcontextprotocol/client';

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
