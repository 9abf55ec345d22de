/**
 * Access tokens of the team gateway's agents, checked as the MCP authorization specification asks of
 * a protected resource: a JWT (RFC 9068 profile) signed by a key of the configured issuer's JWKS,
 * from that issuer, for this resource (`aud`), not expired — all by `jose`, no crypto of our own.
 * The person is the token's `sub`, their groups the configured claim.
 *
 * Opaque tokens are refused (`invalid_token`): the gateway does not call the issuer's introspection
 * endpoint (RFC 7662). Every IdP a team would use issues JWT access tokens for a resource indicator
 * (Entra, Okta, Auth0, Keycloak, oidc-provider), and a per-request call to the IdP is a dependency a
 * gateway on the request path should not have.
 */
import type * as JoseModule from 'jose' with { 'resolution-mode': 'import' };
import type { JWTPayload, createRemoteJWKSet } from 'jose' with { 'resolution-mode': 'import' };
import type { ServiceAuth } from './config.js';

type Jose = typeof JoseModule;
/** `jose` is an ES module only; this bundle is CommonJS, so it comes in by `import()` (once). */
let jose: Promise<Jose> | undefined;
const loadJose = (): Promise<Jose> => (jose ??= import('jose'));

/** Who an agent acts for. */
export interface Caller {
  sub: string;
  groups: string[];
  scopes: string[];
}

export type TokenVerdict =
  | { ok: true; caller: Caller }
  | { ok: false; status: 401; error: 'invalid_token' | undefined; reason: string }
  | { ok: false; status: 403; error: 'insufficient_scope'; reason: string }
  /** The issuer's keys cannot be had (its metadata or JWKS unreachable): not the caller's fault. */
  | { ok: false; status: 503; error: undefined; reason: string };

/** The signing algorithms accepted: asymmetric only (a shared secret cannot come from a JWKS). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

function strings(v: unknown): string[] {
  if (typeof v === 'string') return v.split(' ').filter(Boolean);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export class TokenVerifier {
  private keys: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    private readonly auth: ServiceAuth,
    /** The resource URL tokens must be for. */
    readonly resource: string,
    private readonly fetchMetadata: (url: string) => Promise<unknown> = fetchJson,
  ) {}

  /** The issuer's key set, its location found once from the issuer's metadata unless configured. */
  private async jwks(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.keys) return this.keys;
    const uri = this.auth.jwksUri ?? (await this.discoverJwksUri());
    const { createRemoteJWKSet } = await loadJose();
    this.keys = createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    return this.keys;
  }

  private async discoverJwksUri(): Promise<string> {
    const base = this.auth.issuer.replace(/\/$/, '');
    for (const url of [`${base}/.well-known/oauth-authorization-server`, `${base}/.well-known/openid-configuration`]) {
      const meta = await this.fetchMetadata(url).catch(() => undefined);
      const uri = (meta as { jwks_uri?: unknown } | undefined)?.jwks_uri;
      if (typeof uri === 'string') return uri;
    }
    throw new Error(`the authorization server ${this.auth.issuer} publishes no jwks_uri in its metadata`);
  }

  /** Checks an `Authorization` header value. */
  async verify(header: string | undefined): Promise<TokenVerdict> {
    const token = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
    // No token: no error code (RFC 6750 §3.1), the client is to sign in.
    if (!token) return { ok: false, status: 401, error: undefined, reason: 'no bearer token' };
    if (token.split('.').length !== 3)
      return { ok: false, status: 401, error: 'invalid_token', reason: 'not a JWT (opaque tokens are not accepted)' };
    const { jwtVerify, errors } = await loadJose();
    let keys: ReturnType<typeof createRemoteJWKSet>;
    try {
      keys = await this.jwks();
    } catch (err) {
      return { ok: false, status: 503, error: undefined, reason: err instanceof Error ? err.message : String(err) };
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.auth.issuer,
        audience: this.resource,
        algorithms: ALGORITHMS,
        clockTolerance: this.auth.clockToleranceS,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (err) {
      if (err instanceof errors.JWKSTimeout || (err instanceof Error && !(err instanceof errors.JOSEError)))
        return { ok: false, status: 503, error: undefined, reason: `the issuer's keys: ${whyInvalid(err, errors)}` };
      return { ok: false, status: 401, error: 'invalid_token', reason: whyInvalid(err, errors) };
    }
    const caller: Caller = {
      sub: payload.sub!,
      groups: strings(payload[this.auth.groupsClaim]),
      // `scope` (RFC 9068, a space-separated string); `scp` (Entra, Okta: an array or a string).
      scopes: [...strings(payload.scope), ...strings(payload.scp)],
    };
    const missing = this.auth.requiredScopes.filter((s) => !caller.scopes.includes(s));
    if (missing.length > 0)
      return { ok: false, status: 403, error: 'insufficient_scope', reason: `missing scope ${missing.join(' ')}` };
    return { ok: true, caller };
  }
}

/** A reason for the log: what was wrong, never the token. */
function whyInvalid(err: unknown, errors: Jose['errors']): string {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `claim ${err.claim}: ${err.reason}`;
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
  if (err instanceof errors.JWKSNoMatchingKey) return 'signed by a key the issuer does not publish';
  if (err instanceof errors.JOSEError) return err.code;
  return err instanceof Error ? err.message : String(err);
}

async function fetchJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000), headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}
