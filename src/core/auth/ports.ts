/** The one port OAuth adds to src/core/ports.ts: where the authorization redirect comes back. */

/** A listening redirect endpoint for one sign-in. */
export interface RedirectSession {
  /** The `redirect_uri` to register and send (loopback URL, or an external editor URI). */
  readonly redirectUrl: string;
  /**
   * Resolves with the authorization code once a redirect carrying exactly `state` arrives.
   * Rejects with an AuthError: `state-mismatch`, `denied` (the user or server refused),
   * `timeout` (5 minutes by default) or `cancelled` (the signal aborted).
   */
  waitForCode(state: string, signal?: AbortSignal): Promise<string>;
  /** The `iss` the redirect carried (RFC 9207), set when `waitForCode` resolves; the SDK checks it. */
  issuer?: string;
  /** Stops listening; safe to call more than once. */
  close(): Promise<void>;
}

export interface RedirectReceiver {
  /**
   * `port`: listen exactly there (a configured `callbackPort`; failure is an error).
   * `preferredPort`: try it first (the port a client was registered with), else any free port.
   */
  start(opts?: { port?: number; preferredPort?: number }): Promise<RedirectSession>;
}
