/**
 * Our `OAuthClientProvider`: the SDK's `auth()` does discovery, registration, PKCE, the
 * `resource` parameter, scope selection and token requests; this class only keeps state (in the
 * SecretStore, through AuthRecordStore), decides what a background connection may do, and checks
 * what the SDK leaves to the application (`state`, refresh before expiry, step-up).
 *
 * Two modes:
 * - `background`: used by connections. Never opens a browser and never registers a client; when
 *   the user has to sign in it throws AuthRequiredError (an UnauthorizedError) so the server goes
 *   to `needs-auth`, and remembers for 15 minutes not to probe again.
 * - `interactive`: used by the explicit sign-in (flow.ts) with a live redirect receiver.
 */
import type { EnterpriseIdp } from './enterprise/cross-app.js';
import { randomBytes } from 'node:crypto';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
  FetchLike,
} from '@modelcontextprotocol/server';
import { OAuthMetadataSchema, OpenIdProviderDiscoveryMetadataSchema } from '@modelcontextprotocol/core';
import { OAuthError, OAuthErrorCode, refreshAuthorization, selectResourceURL } from '@modelcontextprotocol/client';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { RemoteServerConfig, ServerDefinition } from '../config/types.js';
import type { Clock, Logger } from '../ports.js';
import { AuthError, AuthRequiredError, redact } from './errors.js';
import { serverAuthKey } from './keys.js';
import type { NeedsAuthCache } from './needs-auth-cache.js';
import { createOAuthFetch } from './oauth-fetch.js';
import type { AuthRecord, AuthRecordStore } from './store.js';
import { errorMessage } from '../errors.js';

/** Refresh this long before `expires_at`, so a request never leaves with a token about to lapse. */
export const REFRESH_SKEW_MS = 60_000;
/** Only used as a placeholder in background mode, where no authorization URL is ever opened. */
const BACKGROUND_REDIRECT = 'http://127.0.0.1/callback';

export interface ProviderContext {
  store: AuthRecordStore;
  needsAuth: NeedsAuthCache;
  clock: Clock;
  logger: Logger;
  /** Shown on the consent screen and sent in dynamic registration. */
  clientName: string;
  clientUri?: string;
  /** An HTTPS URL where this client's metadata document is published (SEP-991), if there is one. */
  clientMetadataUrl?: string;
  /** Network access; defaults to the global fetch. */
  fetch?: FetchLike;
  /** The company IdP the user signed in to, for `"grantType": "jwt-bearer"` servers (auth/enterprise). */
  enterpriseIdp?: EnterpriseIdp;
}

export type ProviderMode =
  | { kind: 'background' }
  | {
      kind: 'interactive';
      redirectUrl: string;
      /**
       * Ignore stored tokens and discovery: the user asked to sign in, so go to the browser
       * (refreshing cannot widen scopes or switch accounts) and re-discover (the server may have moved).
       */
      freshSignIn?: boolean;
      /** Called with the authorization URL (already carrying our `state`); opens the browser. */
      openAuthorizationUrl(url: URL): Promise<void>;
    };

type RemoteDefinition = ServerDefinition & { config: RemoteServerConfig };

export function isOAuthCapable(def: ServerDefinition): def is RemoteDefinition {
  // The SDK's WebSocket transport cannot send an Authorization header, so OAuth is HTTP-only.
  return def.config.type === 'http' || def.config.type === 'sse';
}

/** Rejects a configured metadata URL that is not HTTPS: it decides where the user's tokens go. */
export function checkMetadataUrl(def: RemoteDefinition): URL | undefined {
  const raw = def.config.oauth?.authServerMetadataUrl;
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AuthError('config', `${def.name}: oauth.authServerMetadataUrl is not a valid URL.`);
  }
  if (url.protocol !== 'https:') {
    throw new AuthError(
      'config',
      `${def.name}: oauth.authServerMetadataUrl must use https:// (got ${url.protocol}//). Fix it in the server's configuration.`,
    );
  }
  return url;
}

export class HostOAuthProvider implements OAuthClientProvider {
  readonly key: string;
  readonly serverUrl: string;
  /** Give this to the transport (`fetch` option) and to `auth()` (`fetchFn`). */
  readonly fetch: FetchLike;
  readonly clientMetadataUrl?: string;

  private expectedState?: string;
  private stepUpScope?: string;
  private challenge?: { scope?: string; resourceMetadataUrl?: string };
  private tokensInvalidated = false;
  private refreshing?: Promise<OAuthTokens | undefined>;
  /** Last discovery result seen, so the synchronous `clientMetadata` getter can use it. */
  private discoveryCache?: OAuthDiscoveryState;
  private discoveredHere = false;

  constructor(
    readonly def: RemoteDefinition,
    private readonly ctx: ProviderContext,
    readonly mode: ProviderMode,
  ) {
    this.key = serverAuthKey(def);
    this.serverUrl = def.config.url;
    // A server entry's own document URL wins over the host-wide one.
    this.clientMetadataUrl = def.config.oauth?.clientMetadataUrl ?? ctx.clientMetadataUrl;
    const base = ctx.fetch ?? ((u: string | URL, i?: RequestInit) => fetch(u, i));
    this.fetch = createOAuthFetch(base, {
      onInsufficientScope: (scope) => {
        // Refreshing cannot widen a grant, so the next auth() must authorize again.
        this.stepUpScope = scope ?? '';
      },
      onUnauthorized: (challenge) => {
        this.challenge = challenge;
      },
    });
  }

  /** The `state` of the authorization URL most recently built; the redirect must echo it. */
  get pendingState(): string | undefined {
    return this.expectedState;
  }

  get redirectUrl(): string {
    return this.mode.kind === 'interactive' ? this.mode.redirectUrl : BACKGROUND_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const supported = this.discoveryCache?.authorizationServerMetadata?.token_endpoint_auth_methods_supported;
    // A public client with PKCE is right for a desktop app; ask for a secret only if the server cannot do without.
    const method =
      !supported || supported.includes('none')
        ? 'none'
        : (supported.find((m) => m === 'client_secret_basic' || m === 'client_secret_post') ?? 'none');
    const scopes = this.def.config.oauth?.scopes;
    return {
      redirect_uris: [this.redirectUrl],
      client_name: this.ctx.clientName,
      ...(this.ctx.clientUri ? { client_uri: this.ctx.clientUri } : {}),
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  state(): string {
    // The SDK sends `state` but never checks it; the redirect receiver compares it with this.
    this.expectedState = randomBytes(32).toString('base64url');
    return this.expectedState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const record = await this.ctx.store.read(this.key);
    const configured = this.def.config.oauth?.clientId;
    if (configured) {
      return { client_id: configured, ...(record.clientSecret ? { client_secret: record.clientSecret } : {}) };
    }
    const client = record.client;
    if (!client) {
      // Registering is part of signing in; a background connection never does it on its own.
      if (this.mode.kind === 'background') throw await this.requireAuth('no-tokens');
      return undefined;
    }
    if (this.mode.kind === 'interactive' && 'redirect_uris' in client && Array.isArray(client.redirect_uris)) {
      // Registered for another loopback port: register again rather than fail at the authorization server.
      if (!client.redirect_uris.includes(this.redirectUrl)) return undefined;
    }
    return client;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.def.config.oauth?.clientId) return; // configuration is the source of truth
    await this.ctx.store.update(this.key, (r) => ({ ...r, client: info }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.mode.kind === 'interactive' && this.mode.freshSignIn) return undefined;
    const record = await this.ctx.store.read(this.key);
    let tokens = record.tokens;
    if (!tokens) {
      // Inside the quiet period a background connect does not even send the unauthenticated probe.
      if (this.mode.kind === 'background' && this.ctx.needsAuth.isFresh(this.key)) {
        throw new AuthRequiredError(this.def.name, 'recently-failed');
      }
      return undefined;
    }
    if (this.stepUpScope !== undefined) {
      // Without a refresh token in sight, auth() starts a new authorization with the wider scope.
      const { refresh_token: _drop, ...rest } = tokens;
      return rest;
    }
    if (
      tokens.refresh_token &&
      record.expiresAt !== undefined &&
      this.ctx.clock.now() >= record.expiresAt - REFRESH_SKEW_MS
    ) {
      tokens = await this.refreshBeforeExpiry(record);
    }
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in !== undefined ? this.ctx.clock.now() + tokens.expires_in * 1000 : undefined;
    await this.ctx.store.update(this.key, (r) => ({
      ...r,
      serverUrl: this.serverUrl,
      tokens,
      expiresAt,
      codeVerifier: undefined,
      pendingScope: undefined,
      pendingResourceMetadataUrl: undefined,
    }));
    this.stepUpScope = undefined;
    this.tokensInvalidated = false;
    await this.ctx.needsAuth.clear(this.key);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.mode.kind === 'background') {
      // Keep what the SDK chose (WWW-Authenticate scope, then scopes_supported, then ours) for the sign-in.
      const scope = url.searchParams.get('scope') ?? undefined;
      await this.ctx.store.update(this.key, (r) => ({ ...r, pendingScope: scope ?? r.pendingScope }));
      throw await this.requireAuth(this.stepUpScope !== undefined ? 'step-up' : 'authorization-needed');
    }
    if (!this.expectedState || url.searchParams.get('state') !== this.expectedState) {
      throw new AuthError('state-mismatch', 'Internal error: the authorization URL lacks the expected state.');
    }
    await this.mode.openAuthorizationUrl(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.ctx.store.update(this.key, (r) => ({ ...r, codeVerifier }));
  }

  async codeVerifier(): Promise<string> {
    const v = (await this.ctx.store.read(this.key)).codeVerifier;
    if (!v) throw new AuthError('token', `No sign-in to ${this.def.name} is in progress; start it again.`);
    return v;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') this.tokensInvalidated = true;
    await this.ctx.store.update(this.key, (r) => {
      const out = { ...r };
      if (scope === 'all' || scope === 'tokens') {
        out.tokens = undefined;
        out.expiresAt = undefined;
      }
      if (scope === 'all' || scope === 'client') out.client = undefined;
      if (scope === 'all' || scope === 'verifier') out.codeVerifier = undefined;
      if (scope === 'all' || scope === 'discovery') out.discovery = undefined;
      return out;
    });
    if (scope === 'all' || scope === 'discovery') this.discoveryCache = undefined;
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const record = await this.ctx.store.read(this.key);
    if (this.mode.kind === 'background' && !record.tokens && this.stepUpScope === undefined) {
      // auth() calls this first: stop before any discovery request when only a sign-in can help.
      throw await this.requireAuth(this.tokensInvalidated ? 'refresh-failed' : 'no-tokens');
    }
    const stale = this.mode.kind === 'interactive' && this.mode.freshSignIn && !this.discoveredHere;
    if (record.discovery?.authorizationServerUrl && !stale) {
      this.discoveryCache = record.discovery;
      return record.discovery;
    }
    const configured = checkMetadataUrl(this.def);
    if (configured) {
      const metadata = await this.fetchConfiguredMetadata(configured);
      const state: OAuthDiscoveryState = {
        authorizationServerUrl: metadata.issuer,
        authorizationServerMetadata: metadata,
      };
      this.discoveryCache = state;
      return state;
    }
    return undefined;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discoveryCache = state;
    this.discoveredHere = true;
    await this.ctx.store.update(this.key, (r) => ({ ...r, discovery: state }));
  }

  /** What the last 401 challenge of this connection said (used to carry it into a sign-in). */
  get lastChallenge(): { scope?: string; resourceMetadataUrl?: string } | undefined {
    return this.challenge;
  }

  private async requireAuth(reason: AuthRequiredError['reason']): Promise<AuthRequiredError> {
    const challenge = this.challenge;
    if (challenge?.scope || challenge?.resourceMetadataUrl) {
      await this.ctx.store.update(this.key, (r) => ({
        ...r,
        pendingScope: r.pendingScope ?? challenge.scope,
        pendingResourceMetadataUrl: challenge.resourceMetadataUrl ?? r.pendingResourceMetadataUrl,
      }));
    }
    await this.ctx.needsAuth.mark(this.key);
    return new AuthRequiredError(this.def.name, reason);
  }

  private refreshBeforeExpiry(record: AuthRecord): Promise<OAuthTokens | undefined> {
    this.refreshing ??= this.doRefresh(record).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async doRefresh(record: AuthRecord): Promise<OAuthTokens | undefined> {
    const tokens = record.tokens!;
    const disc = record.discovery;
    const client = this.def.config.oauth?.clientId
      ? {
          client_id: this.def.config.oauth.clientId,
          ...(record.clientSecret ? { client_secret: record.clientSecret } : {}),
        }
      : record.client;
    // Without discovery state or a client we cannot refresh here; the 401 path (SDK auth()) will.
    if (!disc?.authorizationServerUrl || !client) return tokens;
    const issuer = String(disc.authorizationServerUrl);
    try {
      const selected = await selectResourceURL(this.serverUrl, this, disc.resourceMetadata);
      const resource = selected && disc.resourceMetadata ? disc.resourceMetadata.resource : selected;
      const fresh = await refreshAuthorization(disc.authorizationServerUrl, {
        metadata: disc.authorizationServerMetadata,
        clientInformation: client,
        refreshToken: tokens.refresh_token!,
        resource,
        fetchFn: this.fetch,
      });
      const stamped = { ...fresh, issuer };
      await this.saveTokens(stamped);
      this.ctx.logger.info(`${this.def.name}: access token refreshed before expiry.`);
      return stamped;
    } catch (err) {
      if (err instanceof OAuthError && err.code === OAuthErrorCode.InvalidGrant) {
        // The refresh token is dead: drop it and ask for a sign-in instead of trying it again.
        await this.invalidateCredentials('tokens');
        this.ctx.logger.warn(`${this.def.name}: the refresh token was rejected; sign in again.`);
        if (this.mode.kind === 'background') throw await this.requireAuth('refresh-failed');
        return undefined;
      }
      const msg = redact(errorMessage(err), [tokens.access_token, tokens.refresh_token]);
      this.ctx.logger.warn(
        `${this.def.name}: token refresh failed (${msg}); using the current token until the server refuses it.`,
      );
      return tokens;
    }
  }

  private async fetchConfiguredMetadata(url: URL): Promise<AuthorizationServerMetadata> {
    let res: Response;
    try {
      res = await this.fetch(url, { headers: { Accept: 'application/json' } });
    } catch (err) {
      throw new AuthError('discovery', `${this.def.name}: could not load ${url.href}: ${errorMessage(err)}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new AuthError(
        'discovery',
        `${this.def.name}: ${url.href} answered HTTP ${res.status}; check oauth.authServerMetadataUrl.`,
      );
    }
    const json: unknown = await res.json().catch(() => undefined);
    const oidc = OpenIdProviderDiscoveryMetadataSchema.safeParse(json);
    if (oidc.success) return oidc.data;
    const oauth = OAuthMetadataSchema.safeParse(json);
    if (oauth.success) return oauth.data;
    throw new AuthError('discovery', `${this.def.name}: ${url.href} is not OAuth authorization server metadata.`);
  }
}
