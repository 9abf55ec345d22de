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
import { randomBytes } from 'node:crypto';
import type {
  StoredOAuthClientInformation,
  StoredOAuthTokens,
  OAuthClientMetadata,
  OAuthTokens,
  FetchLike,
} from '@modelcontextprotocol/server';
import { OAuthError, OAuthErrorCode, refreshAuthorization, selectResourceURL } from '@modelcontextprotocol/client';
import type {
  OAuthClientInformationContext,
  OAuthClientProvider,
  OAuthDiscoveryState,
} from '@modelcontextprotocol/client';
import { AuthError, AuthRequiredError, redact } from './errors.js';
import { sameIssuer, serverAuthKey } from './keys.js';
import {
  forgetRegistration,
  recordIssuer,
  registrationFor,
  registrationOfRecord,
  saveRegistration,
} from './issuer-clients.js';
import { createOAuthFetch } from './oauth-fetch.js';
import type { AuthRecord } from './store.js';
import { errorMessage } from '../errors.js';
import {
  checkMetadataUrl,
  fetchConfiguredMetadata,
  type ProviderContext,
  type ProviderMode,
  type RemoteDefinition,
} from './provider-context.js';

export {
  checkMetadataUrl,
  isOAuthCapable,
  type ProviderContext,
  type ProviderMode,
  type RemoteDefinition,
} from './provider-context.js';

/** Refresh this long before `expires_at`, so a request never leaves with a token about to lapse. */
export const REFRESH_SKEW_MS = 60_000;
/** Only used as a placeholder in background mode, where no authorization URL is ever opened. */
const BACKGROUND_REDIRECT = 'http://127.0.0.1/callback';

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
      // A loopback redirect makes this a native application (MCP 2026-07-28, OIDC Registration).
      application_type: 'native',
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

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const record = await this.ctx.store.read(this.key);
    const configured = this.def.config.oauth?.clientId;
    if (configured) {
      return {
        client_id: configured,
        ...(record.clientSecret ? { client_secret: record.clientSecret } : {}),
        // Configuration names the client for whichever issuer the server uses.
        ...(ctx ? { issuer: ctx.issuer } : {}),
      };
    }
    const client = ctx
      ? await registrationFor(this.ctx.store, this.key, ctx.issuer)
      : await registrationOfRecord(this.ctx.store, this.key, record);
    if (!client) {
      // Registering is part of signing in; a background connection never does it on its own.
      if (this.mode.kind === 'background') throw await this.requireAuth('no-tokens');
      return undefined;
    }
    if (
      this.mode.kind === 'interactive' &&
      this.clientMetadataUrl &&
      client.client_id !== this.clientMetadataUrl &&
      this.discoveryCache?.authorizationServerMetadata?.client_id_metadata_document_supported === true
    ) {
      // A sign-in prefers our metadata document to a registration once the server accepts it (2026-07-28).
      return undefined;
    }
    if (this.mode.kind === 'interactive' && 'redirect_uris' in client && Array.isArray(client.redirect_uris)) {
      // Registered for another loopback port: register again rather than fail at the authorization server.
      if (!client.redirect_uris.includes(this.redirectUrl)) return undefined;
    }
    return client;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    if (this.def.config.oauth?.clientId) return; // configuration is the source of truth
    const issuer = ctx?.issuer ?? info.issuer;
    if (issuer) await saveRegistration(this.ctx.store, issuer, info);
    else await this.ctx.store.update(this.key, (r) => ({ ...r, client: info }));
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (this.mode.kind === 'interactive' && this.mode.freshSignIn) return undefined;
    const record = await this.ctx.store.read(this.key);
    let tokens: StoredOAuthTokens | undefined = record.tokens;
    if (tokens && ctx && tokens.issuer === undefined) {
      // Tokens saved before issuer stamps: theirs is the issuer the record was discovered at.
      const discovered = recordIssuer(record);
      // Without a recorded discovery there is nothing to tell, and the sign-in is kept as the SDK would.
      tokens =
        discovered === undefined || sameIssuer(discovered, ctx.issuer)
          ? { ...tokens, issuer: discovered ?? ctx.issuer }
          : undefined;
    }
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
    if (scope === 'all' || scope === 'client') {
      // The authorization server refused the client itself, so it is dead for every server sharing it.
      const issuer = recordIssuer(await this.ctx.store.read(this.key));
      if (issuer && !this.def.config.oauth?.clientId) await forgetRegistration(this.ctx.store, issuer);
    }
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
      const metadata = await fetchConfiguredMetadata(this.fetch, this.def.name, configured);
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
      : await registrationOfRecord(this.ctx.store, this.key, record);
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
}
