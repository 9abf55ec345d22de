/**
 * The OAuth side of the CLI's host: tokens from the CLI's own config folder (auth-store.ts), used
 * by the session's host and by `mcp-host auth`. Kept apart from commands/auth.ts so session.ts and the auth
 * commands do not import each other.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { createHostAuth, createLoopbackReceiver, type HostAuth } from '../core/auth/index.js';
import type { ServerDefinition } from '../core/config/index.js';
import type { BrowserOpener } from '../core/ports.js';
import { systemBrowser } from './open-browser.js';
import { cliConfigDir, FileKeyValueStore, FileSecretStore } from './auth-store.js';
import { stderrLogger } from './ports.js';
import { IdpSession, type IdpSettings } from '../core/auth/index.js';

export interface CliAuthOptions {
  /** Tests replace the browser; everything else is real. */
  browser?: BrowserOpener;
  /** The company IdP (managed file or settings), for `"grantType": "jwt-bearer"` servers. */
  idp?: IdpSettings;
}

/** The IdP sign-in, its tokens in the same 0600 secrets file as the servers' tokens. */
export function createCliIdp(
  io: { env: Record<string, string | undefined>; stderr: (s: string) => void },
  settings: IdpSettings,
  opts: CliAuthOptions = {},
): IdpSession {
  const warn = (message: string) => io.stderr(`mcp-host: warning: ${message}\n`);
  return new IdpSession(settings, {
    secrets: new FileSecretStore(cliConfigDir(io.env), warn),
    browser: opts.browser ?? systemBrowser(io.env),
    receiver: createLoopbackReceiver(),
    logger: stderrLogger(io.env, io.stderr),
  });
}

export function createCliAuth(
  io: { env: Record<string, string | undefined>; stderr: (s: string) => void },
  opts: CliAuthOptions = {},
): HostAuth {
  const dir = cliConfigDir(io.env);
  const warn = (message: string) => io.stderr(`mcp-host: warning: ${message}\n`);
  return createHostAuth({
    secrets: new FileSecretStore(dir, warn),
    kv: new FileKeyValueStore(dir, warn),
    logger: stderrLogger(io.env, io.stderr),
    browser: opts.browser ?? systemBrowser(io.env),
    receiver: createLoopbackReceiver(),
    clientName: 'MCP Host CLI',
    ...(opts.idp ? { enterpriseIdp: createCliIdp(io, opts.idp, opts) } : {}),
  });
}

/** For `createHost({ authProvider })` in the CLI session: stored tokens are used, never a browser. */
export function cliAuthProvider(auth: HostAuth): (def: ServerDefinition) => OAuthClientProvider | undefined {
  return (def) => auth.providerFor(def);
}
