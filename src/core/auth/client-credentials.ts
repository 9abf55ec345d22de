/**
 * Machine-to-machine authorization (SEP-1046): `"oauth": { "grantType": "client_credentials" }`.
 * No browser and no person: the SDK's `auth()` sees a provider without a redirect URL, discovers
 * the authorization server and asks its token endpoint for a token with `grant_type=client_credentials`,
 * authenticating the client with its secret (client_secret_basic / _post, applied by the SDK) or
 * a JWT signed with its private key (private_key_jwt, the SDK's `createPrivateKeyJwtAuth`).
 *
 * The SDK's own ClientCredentialsProvider / PrivateKeyJwtProvider keep tokens in memory and take
 * the secret at construction; here the secret or key and the tokens live in the SecretStore
 * (AuthRecordStore), so this is a thin provider that reuses the SDK's grant and signing pieces.
 */
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/client';
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthSettings, RemoteServerConfig, ServerDefinition } from '../config/types.js';
import { AuthError, AuthRequiredError } from './errors.js';
import { crossAppTokenRequest, usesCrossAppAccess } from './enterprise/cross-app.js';
import { JWT_BEARER_GRANT } from './enterprise/token-exchange.js';
import { serverAuthKey } from './keys.js';
import type { ProviderContext } from './provider.js';

type RemoteDefinition = ServerDefinition & { config: RemoteServerConfig };
export type ClientCredentialKind = 'client secret' | 'private key';

/** Refresh this long before expiry: client_credentials has no refresh token, so simply ask again. */
const EXPIRY_SKEW_MS = 60_000;
const DEFAULT_SIGNING_ALG = 'RS256';

export function usesClientCredentials(def: ServerDefinition): def is RemoteDefinition {
  return (
    (def.config.type === 'http' || def.config.type === 'sse') &&
    (def.config.oauth?.grantType === 'client_credentials' || usesCrossAppAccess(def))
  );
}

function methodOf(o: OAuthSettings): NonNullable<OAuthSettings['tokenEndpointAuthMethod']> {
  return o.tokenEndpointAuthMethod ?? 'client_secret_basic';
}

/**
 * A jwt-bearer client with no `tokenEndpointAuthMethod` may be public: the IdP-signed ID-JAG,
 * bound to this client and this authorization server, is the proof; a stored secret is still sent.
 */
export function mayBePublic(def: RemoteDefinition): boolean {
  return usesCrossAppAccess(def) && def.config.oauth?.tokenEndpointAuthMethod === undefined;
}

/** What the user must supply for this server: its client secret or its private key. */
export function credentialKind(def: RemoteDefinition): ClientCredentialKind {
  return methodOf(def.config.oauth ?? {}) === 'private_key_jwt' ? 'private key' : 'client secret';
}

/** A configuration problem that no credential can fix, as a message; undefined when fine. */
export function clientCredentialsConfigProblem(def: RemoteDefinition): string | undefined {
  if (!def.config.oauth?.clientId)
    return `${def.name}: "oauth.grantType": "client_credentials" needs "oauth.clientId" (the client registered with the authorization server).`;
  return undefined;
}

/** Parses a stored private key: JWK JSON stays an object, PEM stays a string (jose imports both). */
function keyMaterial(raw: string): string | Record<string, unknown> {
  const t = raw.trim();
  if (t.startsWith('{')) {
    try {
      return JSON.parse(t) as Record<string, unknown>;
    } catch {
      throw new AuthError('config', 'The stored private key looks like JSON but is not valid JWK; enter it again.');
    }
  }
  return t;
}

export class ClientCredentialsProvider implements OAuthClientProvider {
  readonly key: string;
  private readonly oauth: OAuthSettings;

  constructor(
    readonly def: RemoteDefinition,
    private readonly ctx: ProviderContext,
  ) {
    this.key = serverAuthKey(def);
    this.oauth = def.config.oauth ?? {};
  }

  /** No redirect: this is what tells the SDK's auth() to run a non-interactive grant. */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.oauth.scopes;
    return {
      redirect_uris: [],
      client_name: this.ctx.clientName,
      grant_types: [usesCrossAppAccess(this.def) ? JWT_BEARER_GRANT : 'client_credentials'],
      token_endpoint_auth_method: methodOf(this.oauth),
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const problem = clientCredentialsConfigProblem(this.def);
    if (problem) throw new AuthError('config', problem);
    const record = await this.ctx.store.read(this.key);
    const method = methodOf(this.oauth);
    const credential = method === 'private_key_jwt' ? record.privateKey : record.clientSecret;
    if (!credential && mayBePublic(this.def)) {
      const issuer = this.oauth.issuer ?? record.boundIssuer;
      return { client_id: this.oauth.clientId!, token_endpoint_auth_method: 'none', ...(issuer ? { issuer } : {}) };
    }
    if (!credential) {
      await this.ctx.needsAuth.mark(this.key);
      throw new AuthRequiredError(this.def.name, 'no-client-credentials');
    }
    // Stamped with an issuer, the SDK refuses to send the credentials to any other authorization server.
    const issuer = this.oauth.issuer ?? record.boundIssuer;
    return {
      client_id: this.oauth.clientId!,
      ...(method !== 'private_key_jwt' ? { client_secret: record.clientSecret } : {}),
      token_endpoint_auth_method: method,
      ...(issuer ? { issuer } : {}),
    };
  }

  /** The SDK calls this once to bind unstamped credentials to the server that accepted them. */
  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    const issuer = (info as { issuer?: unknown }).issuer;
    if (typeof issuer === 'string' && !this.oauth.issuer)
      await this.ctx.store.update(this.key, (r) => ({ ...r, boundIssuer: issuer }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const record = await this.ctx.store.read(this.key);
    // Expired (or nearly): send nothing, the 401 makes the SDK fetch a fresh token.
    if (record.expiresAt !== undefined && this.ctx.clock.now() >= record.expiresAt - EXPIRY_SKEW_MS) return undefined;
    return record.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in !== undefined ? this.ctx.clock.now() + tokens.expires_in * 1000 : undefined;
    await this.ctx.store.update(this.key, (r) => ({ ...r, serverUrl: this.def.config.url, tokens, expiresAt }));
    await this.ctx.needsAuth.clear(this.key);
  }

  redirectToAuthorization(): void {
    throw new AuthError('config', `${this.def.name} uses client credentials; there is no browser sign-in.`);
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new AuthError('config', `${this.def.name} uses client credentials; there is no authorization code.`);
  }

  /**
   * The SDK passes only the configured scopes here. Without any, follow the MCP scope selection
   * rule the authorization-code flow uses: the protected resource's `scopes_supported`
   * (auth() saved its discovery just before asking for the token).
   */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    if (usesCrossAppAccess(this.def)) {
      const discovery = (await this.ctx.store.read(this.key)).discovery;
      return crossAppTokenRequest(this.def, discovery, this.ctx.enterpriseIdp, scope, this.ctx.fetch);
    }
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    const supported = scope
      ? undefined
      : (await this.ctx.store.read(this.key)).discovery?.resourceMetadata?.scopes_supported;
    const chosen = scope || supported?.join(' ');
    if (chosen) params.set('scope', chosen);
    return params;
  }

  /** Only for private_key_jwt; the secret methods are applied by the SDK from clientInformation. */
  get addClientAuthentication(): OAuthClientProvider['addClientAuthentication'] {
    if (methodOf(this.oauth) !== 'private_key_jwt') return undefined;
    return async (
      headers: Headers,
      params: URLSearchParams,
      url: string | URL,
      metadata?: AuthorizationServerMetadata,
    ) => {
      const record = await this.ctx.store.read(this.key);
      if (!record.privateKey) throw new AuthRequiredError(this.def.name, 'no-client-credentials');
      const alg =
        this.oauth.signingAlgorithm ??
        metadata?.token_endpoint_auth_signing_alg_values_supported?.[0] ??
        DEFAULT_SIGNING_ALG;
      const sign = createPrivateKeyJwtAuth({
        issuer: this.oauth.clientId!,
        subject: this.oauth.clientId!,
        privateKey: keyMaterial(record.privateKey),
        alg,
      });
      await sign(headers, params, url, metadata);
    };
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') {
      await this.ctx.store.update(this.key, (r) => ({ ...r, tokens: undefined, expiresAt: undefined }));
    }
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.ctx.store.read(this.key)).discovery;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.ctx.store.update(this.key, (r) => ({ ...r, discovery: state }));
  }
}
