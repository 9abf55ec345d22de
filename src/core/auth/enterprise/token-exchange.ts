/**
 * The two grants of enterprise-managed authorization (SEP-990, "cross-app access"), as plain
 * requests: RFC 8693 token exchange at the company's IdP (the user's ID token for an ID-JAG, an
 * Identity Assertion JWT Authorization Grant, whose audience is the MCP server's authorization
 * server) and the RFC 7523 jwt-bearer grant parameters for that authorization server. Written by
 * hand rather than through the SDK: 1.x has no token exchange, and v2's helpers sit behind its own
 * `auth()`; two form posts are less than either dependency.
 */
import { AuthError } from '../errors.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface TokenExchangeRequest {
  /** The IdP's token endpoint. */
  tokenEndpoint: string;
  /** The user's ID token from the IdP sign-in (or the token `subjectTokenType` names). */
  idToken: string;
  /** Default the ID token type (SEP-990); the team gateway sends the caller's access token. */
  subjectTokenType?: string;
  /** The MCP server's authorization server (its issuer). */
  audience: string;
  /** The MCP server (RFC 8707 resource). */
  resource: string;
  /** This app's client at the IdP. */
  clientId: string;
  clientSecret?: string;
  scope?: string;
  fetch?: Fetch;
  timeoutMs?: number;
}

/** RFC 8693 at the IdP: returns the ID-JAG. Errors name the IdP's answer, never a token. */
export async function requestIdJag(r: TokenExchangeRequest): Promise<string> {
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TYPE,
    subject_token: r.idToken,
    subject_token_type: r.subjectTokenType ?? ID_TOKEN_TYPE,
    audience: r.audience,
    resource: r.resource,
  });
  if (r.scope) body.set('scope', r.scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (r.clientSecret)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(r.clientId)}:${encodeURIComponent(r.clientSecret)}`).toString('base64')}`;
  else body.set('client_id', r.clientId);
  let res: Response;
  try {
    res = await (r.fetch ?? fetch)(r.tokenEndpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(r.timeoutMs ?? 30_000),
    });
  } catch (e) {
    throw new AuthError(
      'token',
      `The identity provider's token endpoint ${r.tokenEndpoint} cannot be reached: ${(e as Error).message}`,
    );
  }
  let json: Record<string, unknown> = {};
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    // Reported below with the status.
  }
  if (!res.ok || typeof json.error === 'string') {
    const why =
      typeof json.error === 'string'
        ? `${json.error}${typeof json.error_description === 'string' ? `: ${json.error_description}` : ''}`
        : `HTTP ${res.status}`;
    throw new AuthError(
      'token',
      `The identity provider refused the token exchange for ${r.audience} (${why}). Sign in to the identity provider again.`,
    );
  }
  if (typeof json.access_token !== 'string' || json.issued_token_type !== ID_JAG_TYPE)
    throw new AuthError(
      'token',
      `The identity provider did not issue an ID-JAG (issued_token_type ${JSON.stringify(json.issued_token_type)}).`,
    );
  return json.access_token;
}

/** The jwt-bearer request body for the MCP server's authorization server (client auth is added by the caller). */
export function jwtBearerParams(idJag: string, scope?: string): URLSearchParams {
  const p = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: idJag });
  if (scope) p.set('scope', scope);
  return p;
}
