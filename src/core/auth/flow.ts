/**
 * The explicit sign-in the user asks for (Authenticate in the editor, `mcp-host auth` in the
 * CLI): listen for the redirect, let the SDK's `auth()` discover, register and build the
 * authorization URL, open it, wait for the code with our `state`, and exchange it. A machine
 * (client_credentials) server has no browser step: its stored credential is exchanged at once.
 * Sign Out revokes, then forgets.
 */
import {
  auth,
  extractWWWAuthenticateParams,
  discoverOAuthServerInfo,
  IssuerMismatchError,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/client';
import type { AddClientAuthentication, OAuthClientInformationMixed } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/types.js';
import type { BrowserOpener } from '../ports.js';
import { AuthError, redact } from './errors.js';
import {
  clientCredentialsConfigProblem,
  ClientCredentialsProvider,
  credentialKind,
  mayBePublic,
  usesClientCredentials,
} from './client-credentials.js';
import { registrationFor, registrationOfRecord } from './issuer-clients.js';
import { revokeTokens, type RevocationOutcome } from './revoke.js';
import type { AuthRecord } from './store.js';
import { checkMetadataUrl, HostOAuthProvider, isOAuthCapable, type ProviderContext } from './provider.js';
import type { RedirectReceiver } from './ports.js';
import { errorMessage } from '../errors.js';
import { openableUrl } from './safe-url.js';
import { legacyDiscoveryState } from './legacy-discovery.js';

export interface AuthenticateOptions {
  signal?: AbortSignal;
  /** Told the authorization URL before the browser is asked to open it (the CLI prints it). */
  onAuthorizationUrl?(url: string): void;
  /** Keep waiting for the redirect when the browser could not be opened (the user copies the URL). */
  continueWithoutBrowser?: boolean;
}

export interface FlowDeps extends ProviderContext {
  browser: BrowserOpener;
  receiver: RedirectReceiver;
}

/** Opens the sign-in page (the URL checked first: the metadata that chose it is the server's). */
async function openInBrowser(
  url: URL,
  def: ServerDefinition,
  deps: FlowDeps,
  opts: AuthenticateOptions,
): Promise<void> {
  const href = openableUrl(url, `Sign-in to ${def.name}`);
  opts.onAuthorizationUrl?.(href);
  const opened = await deps.browser.open(href).catch((err: unknown) => {
    if (err instanceof AuthError) throw err;
    return false;
  });
  if (!opened && !opts.continueWithoutBrowser) {
    throw new AuthError(
      'browser',
      'The browser was not opened, so sign-in stopped. Try again and allow opening the link.',
    );
  }
}

/** The SDK's first step: tokens already (AUTHORIZED), or a redirect to the sign-in page; its failures as AuthErrors. */
async function startAuth(
  def: ServerDefinition,
  provider: HostOAuthProvider,
  options: Parameters<typeof auth>[1],
): Promise<'AUTHORIZED' | 'REDIRECT'> {
  try {
    return await auth(provider, options);
  } catch (err) {
    if (err instanceof AuthError) throw err;
    if (err instanceof IssuerMismatchError) throw issuerMismatch(def, err);
    throw new AuthError(
      'discovery',
      `Could not start signing in to ${def.name}: ${message(err)}. Check the server URL and that it supports OAuth.`,
    );
  }
}

/** Resolves once tokens are stored; rejects with an AuthError whose message says what to do. */
export async function authenticate(
  def: ServerDefinition,
  deps: FlowDeps,
  opts: AuthenticateOptions = {},
): Promise<void> {
  if (!isOAuthCapable(def)) {
    throw new AuthError(
      'config',
      `${def.name} is a ${def.config.type} server; OAuth sign-in is only for http and sse servers.`,
    );
  }
  checkMetadataUrl(def);
  if (opts.signal?.aborted) throw new AuthError('cancelled', 'Sign-in was cancelled.');
  const probeKey = new HostOAuthProvider(def, deps, { kind: 'background' }).key;
  await deps.needsAuth.clear(probeKey);
  const record = await deps.store.read(probeKey);

  const challenge =
    record.pendingScope || record.pendingResourceMetadataUrl
      ? { scope: record.pendingScope, resourceMetadataUrl: record.pendingResourceMetadataUrl }
      : await probe(def, deps);

  // A configured metadata URL replaces discovery altogether.
  const legacy = def.config.oauth?.authServerMetadataUrl
    ? undefined
    : await legacyDiscoveryState(def.config.url, challenge.resourceMetadataUrl, deps.fetch ?? ((u, i) => fetch(u, i)));
  const registeredPort = registeredLoopbackPort(
    await knownRegistration(def, deps, probeKey, record, challenge, legacy?.authorizationServerMetadata?.issuer),
  );
  const session = await deps.receiver.start(
    def.config.oauth?.callbackPort !== undefined
      ? { port: def.config.oauth.callbackPort }
      : { preferredPort: registeredPort },
  );
  try {
    const provider = new HostOAuthProvider(def, deps, {
      kind: 'interactive',
      redirectUrl: session.redirectUrl,
      freshSignIn: true,
      openAuthorizationUrl: (url) => openInBrowser(url, def, deps, opts),
    });
    if (legacy) await provider.saveDiscoveryState(legacy);
    const options = {
      serverUrl: def.config.url,
      scope: challenge.scope,
      resourceMetadataUrl: challenge.resourceMetadataUrl ? new URL(challenge.resourceMetadataUrl) : undefined,
      fetchFn: provider.fetch,
    };

    if ((await startAuth(def, provider, options)) === 'AUTHORIZED') return;

    const state = provider.pendingState;
    if (!state) throw new AuthError('state-mismatch', 'Internal error: no state was generated for this sign-in.');
    const code = await session.waitForCode(state, opts.signal);
    try {
      await auth(provider, {
        ...options,
        authorizationCode: code,
        ...(session.issuer !== undefined ? { iss: session.issuer } : {}),
      });
    } catch (err) {
      if (err instanceof AuthError) throw err;
      if (err instanceof IssuerMismatchError) throw issuerMismatch(def, err);
      throw new AuthError(
        'token',
        `${def.name}: the authorization server did not accept the sign-in: ${redact(message(err), [code])}`,
      );
    }
  } finally {
    await session.close();
  }
}

/**
 * The explicit "sign-in" of a machine client: with its credential stored, fetch a token now so a
 * wrong secret or key shows at once rather than as a failing server later.
 */
export async function authenticateClientCredentials(def: ServerDefinition, ctx: ProviderContext): Promise<void> {
  if (!usesClientCredentials(def)) throw new AuthError('config', `${def.name} does not use client credentials.`);
  const problem = clientCredentialsConfigProblem(def);
  if (problem) throw new AuthError('config', problem);
  const provider = new ClientCredentialsProvider(def, ctx);
  await ctx.needsAuth.clear(provider.key);
  const record = await ctx.store.read(provider.key);
  if (!(credentialKind(def) === 'private key' ? record.privateKey : record.clientSecret) && !mayBePublic(def)) {
    throw new AuthError(
      'config',
      `${def.name}: no ${credentialKind(def)} is stored for client "${def.config.oauth?.clientId}"; enter it first.`,
    );
  }
  // Whatever token was stored may be for the old credential.
  await provider.invalidateCredentials('tokens');
  // The challenge may name the resource metadata where the well-known path does not have it.
  const challenge = await probe(def, ctx);
  try {
    const result = await auth(provider, {
      serverUrl: def.config.url,
      resourceMetadataUrl: challenge.resourceMetadataUrl ? new URL(challenge.resourceMetadataUrl) : undefined,
      fetchFn: ctx.fetch ?? ((u, i) => fetch(u, i)),
    });
    if (result !== 'AUTHORIZED') throw new Error(`unexpected result ${result}`);
  } catch (err) {
    if (err instanceof AuthError) throw err;
    const msg = redact(err instanceof Error ? err.message : String(err), [record.clientSecret]);
    throw new AuthError(
      'token',
      `${def.name}: the authorization server did not issue a token for client "${def.config.oauth?.clientId}": ${msg}. Check the ${credentialKind(def)} and "oauth" settings.`,
    );
  }
}

/**
 * Revokes the server's tokens where its authorization server offers revocation (RFC 7009), then
 * forgets everything stored for it: tokens, registration, verifier, discovery, client secret or key.
 */
export async function signOut(def: ServerDefinition, deps: ProviderContext, key: string): Promise<RevocationOutcome> {
  const record = await deps.store.read(key);
  let outcome: RevocationOutcome;
  try {
    outcome = await revokeTokens(
      record,
      await signedInClient(def, record, deps, key),
      deps.fetch ?? ((u, i) => fetch(u, i)),
      machineAuthFor(def, deps),
    );
  } catch (err) {
    outcome = {
      kind: 'failed',
      message: redact(message(err), [record.tokens?.access_token, record.tokens?.refresh_token, record.clientSecret]),
    };
  }
  if (outcome.kind === 'revoked')
    deps.logger.info(`${def.name}: ${outcome.tokens.join(' and ')} revoked at the authorization server.`);
  else if (outcome.kind === 'failed')
    deps.logger.warn(
      `${def.name}: token revocation failed (${outcome.message}); the tokens are forgotten here but may stay valid until they expire.`,
    );
  await deps.store.delete(key);
  await deps.needsAuth.clear(key);
  return outcome;
}

/** The client the stored tokens were issued to. */
async function signedInClient(
  def: ServerDefinition,
  record: AuthRecord,
  deps: ProviderContext,
  key: string,
): Promise<OAuthClientInformationMixed | undefined> {
  const oauth = def.config.type === 'http' || def.config.type === 'sse' ? def.config.oauth : undefined;
  if (oauth?.clientId)
    return { client_id: oauth.clientId, ...(record.clientSecret ? { client_secret: record.clientSecret } : {}) };
  return registrationOfRecord(deps.store, key, record);
}

/**
 * RFC 9207: the redirect named another issuer than the one this sign-in started at (or none where
 * it promised one), the sign of a mix-up attack. The received value is the attacker's, so it is not shown.
 */
function issuerMismatch(def: ServerDefinition, err: IssuerMismatchError): AuthError {
  const what =
    err.kind === 'metadata'
      ? `its authorization server's metadata names another issuer than the one it was fetched for (${err.expected})`
      : err.received === undefined
        ? `the authorization response carried no issuer, though ${err.expected} says it always sends one`
        : `the authorization response came from another issuer than ${err.expected}`;
  return new AuthError(
    'issuer-mismatch',
    `Sign-in to ${def.name} refused: ${what}. Nothing was saved; sign in again, and if this repeats, check the server's OAuth configuration.`,
  );
}

function machineAuthFor(def: ServerDefinition, deps: ProviderContext): AddClientAuthentication | undefined {
  return usesClientCredentials(def) ? new ClientCredentialsProvider(def, deps).addClientAuthentication : undefined;
}

/**
 * One unauthenticated request to learn the server's challenge (scope, resource metadata URL).
 * Best effort: any failure leaves discovery to the well-known URLs.
 */
async function probe(
  def: ServerDefinition & { config: { url: string; headers?: Record<string, string>; type: string } },
  deps: ProviderContext,
): Promise<{ scope?: string; resourceMetadataUrl?: string }> {
  const f = deps.fetch ?? ((u: string | URL, i?: RequestInit) => fetch(u, i));
  const headers: Record<string, string> = { ...(def.config.headers ?? {}) };
  for (const k of Object.keys(headers)) if (k.toLowerCase() === 'authorization') delete headers[k];
  const init: RequestInit =
    def.config.type === 'sse'
      ? { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }
      : {
          method: 'POST',
          headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {
              protocolVersion: LATEST_PROTOCOL_VERSION,
              capabilities: {},
              clientInfo: { name: deps.clientName, version: '0' },
            },
          }),
        };
  try {
    const res = await f(def.config.url, { ...init, signal: AbortSignal.timeout(15_000) });
    await res.body?.cancel().catch(() => undefined);
    if (res.status !== 401 && res.status !== 403) return {};
    const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(res);
    return { scope, resourceMetadataUrl: resourceMetadataUrl?.href };
  } catch {
    return {};
  }
}

/**
 * The registration this sign-in will use, so the redirect listens on the port it was made for: the
 * one of the record's issuer, or, for a server new to us, the one of the issuer its metadata names
 * (another server behind it may have registered already).
 */
async function knownRegistration(
  def: ServerDefinition & { config: { url: string } },
  deps: ProviderContext,
  key: string,
  record: AuthRecord,
  challenge: { resourceMetadataUrl?: string },
  legacyIssuer: string | undefined,
): Promise<OAuthClientInformationMixed | undefined> {
  const own = await registrationOfRecord(deps.store, key, record);
  if (own || (def.config as { oauth?: { clientId?: string } }).oauth?.clientId) return own;
  try {
    if (legacyIssuer !== undefined) return await registrationFor(deps.store, key, legacyIssuer);
    const info = await discoverOAuthServerInfo(def.config.url, {
      resourceMetadataUrl: challenge.resourceMetadataUrl ? new URL(challenge.resourceMetadataUrl) : undefined,
      fetchFn: deps.fetch ?? ((u, i) => fetch(u, i)),
    });
    return await registrationFor(
      deps.store,
      key,
      info.authorizationServerMetadata?.issuer ?? info.authorizationServerUrl,
    );
  } catch {
    // Best effort: auth() discovers again and reports what went wrong.
    return undefined;
  }
}

function registeredLoopbackPort(client: unknown): number | undefined {
  const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  if (!Array.isArray(uris) || typeof uris[0] !== 'string') return undefined;
  try {
    const u = new URL(uris[0]);
    return u.hostname === '127.0.0.1' && u.port ? Number(u.port) : undefined;
  } catch {
    return undefined;
  }
}

function message(err: unknown): string {
  return errorMessage(err);
}
