/**
 * The user's one sign-in to the company identity provider (OpenID Connect, authorization code
 * with PKCE through the same browser hand-off and redirect receiver as server sign-ins). Its ID
 * and refresh tokens live in the SecretStore (SecretStorage; the CLI's 0600 store) under one key
 * per IdP and client; the ID token is renewed with the refresh token shortly before it expires.
 * Every `"grantType": "jwt-bearer"` server gets its token from this ID token (cross-app.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { BrowserOpener, Clock, Logger, SecretStore } from '../../ports.js';
import { systemClock } from '../../ports.js';
import { AuthError } from '../errors.js';
import type { RedirectReceiver } from '../ports.js';
import type { EnterpriseIdp } from './cross-app.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** As an administrator writes it (managed file `enterpriseIdp`) or a user (setting `mcpHost.enterpriseIdp`). */
export interface IdpSettings {
  issuer: string;
  clientId: string;
  /** Confidential clients only; most IdP apps for desktop tools are public (PKCE, no secret). */
  clientSecret?: string;
  /** Besides `openid` and `offline_access`. */
  scopes?: string[];
}

interface OidcMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
}

interface IdpRecord {
  idToken: string;
  refreshToken?: string;
  /** ms since the epoch, from the ID token's `exp`. */
  expiresAt?: number;
  tokenEndpoint: string;
}

/** Renew this long before the ID token expires, so an exchange never carries one that lapses in flight. */
const RENEW_SKEW_MS = 60_000;

export interface IdpSessionDeps {
  secrets: SecretStore;
  browser: BrowserOpener;
  receiver: RedirectReceiver;
  logger: Logger;
  clock?: Clock;
  fetch?: Fetch;
}

function b64url(b: Buffer): string {
  return b.toString('base64url');
}

/** `exp` of a JWT, unverified: only used to decide when to renew (the IdP verifies the token itself). */
function expiryOf(jwt: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class IdpSession implements EnterpriseIdp {
  readonly key: string;
  private readonly clock: Clock;
  private renewing: Promise<string | undefined> | undefined;

  constructor(
    readonly settings: IdpSettings,
    private readonly deps: IdpSessionDeps,
  ) {
    this.key = `mcpHost.enterpriseIdp:${settings.issuer.replace(/\/+$/, '')}|${settings.clientId}`;
    this.clock = deps.clock ?? systemClock;
  }

  get clientId(): string {
    return this.settings.clientId;
  }

  get clientSecret(): string | undefined {
    return this.settings.clientSecret;
  }

  private fetch(url: string, init?: RequestInit): Promise<Response> {
    return (this.deps.fetch ?? fetch)(url, { ...init, signal: AbortSignal.timeout(30_000) });
  }

  private async metadata(): Promise<OidcMetadata> {
    const url = `${this.settings.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    let m: Partial<OidcMetadata>;
    try {
      const res = await this.fetch(url, { headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      m = (await res.json()) as Partial<OidcMetadata>;
    } catch (e) {
      throw new AuthError(
        'discovery',
        `The identity provider's OpenID metadata (${url}) cannot be read: ${(e as Error).message}`,
      );
    }
    if (typeof m.authorization_endpoint !== 'string' || typeof m.token_endpoint !== 'string')
      throw new AuthError('discovery', `${url} has no authorization_endpoint or token_endpoint.`);
    return m as OidcMetadata;
  }

  private async read(): Promise<IdpRecord | undefined> {
    const raw = await this.deps.secrets.get(this.key);
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as IdpRecord;
    } catch {
      return undefined;
    }
  }

  private async tokenRequest(endpoint: string, params: URLSearchParams): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (this.settings.clientSecret)
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(this.settings.clientId)}:${encodeURIComponent(this.settings.clientSecret)}`).toString('base64')}`;
    else params.set('client_id', this.settings.clientId);
    const res = await this.fetch(endpoint, { method: 'POST', headers, body: params });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok || typeof json.error === 'string')
      throw new AuthError(
        'token',
        `The identity provider refused the token request (${typeof json.error === 'string' ? `${json.error}${typeof json.error_description === 'string' ? `: ${json.error_description.slice(0, 200)}` : ''}` : `HTTP ${res.status}`}).`,
      );
    if (typeof json.id_token !== 'string')
      throw new AuthError('token', 'The identity provider answered without an ID token; is "openid" an allowed scope?');
    return json;
  }

  private async save(json: Record<string, unknown>, tokenEndpoint: string, previousRefresh?: string): Promise<string> {
    const idToken = json.id_token as string;
    const record: IdpRecord = {
      idToken,
      refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : previousRefresh,
      expiresAt: expiryOf(idToken),
      tokenEndpoint,
    };
    await this.deps.secrets.store(this.key, JSON.stringify(record));
    return idToken;
  }

  /** The browser sign-in; resolves once the tokens are stored. */
  async signIn(signal?: AbortSignal): Promise<void> {
    const meta = await this.metadata();
    const session = await this.deps.receiver.start();
    try {
      const verifier = b64url(randomBytes(32));
      const state = b64url(randomBytes(16));
      const url = new URL(meta.authorization_endpoint);
      const scopes = ['openid', 'offline_access', ...(this.settings.scopes ?? [])];
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: this.settings.clientId,
        redirect_uri: session.redirectUrl,
        scope: [...new Set(scopes)].join(' '),
        state,
        code_challenge: b64url(createHash('sha256').update(verifier).digest()),
        code_challenge_method: 'S256',
        // Without it many IdPs do not issue the refresh token offline_access asks for.
        prompt: 'consent',
      }).toString();
      if (!(await this.deps.browser.open(url.href)))
        throw new AuthError('browser', 'The browser could not be opened for the identity provider sign-in.');
      const code = await session.waitForCode(state, signal);
      const json = await this.tokenRequest(
        meta.token_endpoint,
        new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: session.redirectUrl,
          code_verifier: verifier,
        }),
      );
      await this.save(json, meta.token_endpoint);
      this.deps.logger.info(`signed in to the identity provider ${this.settings.issuer}`);
    } finally {
      await session.close();
    }
  }

  async signedIn(): Promise<boolean> {
    return (await this.read()) !== undefined;
  }

  /** Forgets the IdP tokens; the caller signs the jwt-bearer servers out too. */
  async signOut(): Promise<void> {
    await this.deps.secrets.delete(this.key);
  }

  async tokenEndpoint(): Promise<string> {
    return (await this.read())?.tokenEndpoint ?? (await this.metadata()).token_endpoint;
  }

  /** The current ID token, renewed first when it is about to expire; undefined: sign in again. */
  async idToken(): Promise<string | undefined> {
    const r = await this.read();
    if (!r) return undefined;
    if (r.expiresAt === undefined || this.clock.now() < r.expiresAt - RENEW_SKEW_MS) return r.idToken;
    // Concurrent connects share one renewal: a rotating refresh token can be used only once.
    this.renewing ??= this.renew(r).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renew(r: IdpRecord): Promise<string | undefined> {
    if (!r.refreshToken) return undefined;
    try {
      const json = await this.tokenRequest(
        r.tokenEndpoint,
        new URLSearchParams({ grant_type: 'refresh_token', refresh_token: r.refreshToken }),
      );
      return await this.save(json, r.tokenEndpoint, r.refreshToken);
    } catch (e) {
      this.deps.logger.warn(`renewing the identity provider sign-in failed: ${(e as Error).message}; sign in again`);
      await this.signOut();
      return undefined;
    }
  }
}
