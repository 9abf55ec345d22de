/**
 * The fetch an OAuth-enabled transport and our own `auth()` calls go through. It changes nothing
 * on the wire; it only corrects what some authorization servers answer so the SDK's error
 * handling takes the right branch, and tells the provider about scope challenges.
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';

/** Error codes some servers use where RFC 6749 says `invalid_grant`. */
const INVALID_GRANT_ALIASES = new Set(['invalid_refresh_token', 'expired_refresh_token', 'token_expired']);

export interface OAuthFetchObserver {
  /** A resource answered 403 `insufficient_scope`; `scope` is what it asked for. */
  onInsufficientScope?(scope: string | undefined): void;
  /** A resource answered 401; what its `WWW-Authenticate` challenge said. */
  onUnauthorized?(challenge: { scope?: string; resourceMetadataUrl?: string }): void;
}

function isTokenRequest(init: RequestInit | undefined): boolean {
  if (!init || (init.method ?? 'GET').toUpperCase() !== 'POST') return false;
  const body = init.body;
  if (body instanceof URLSearchParams) return body.has('grant_type');
  return typeof body === 'string' && /(^|&)grant_type=/.test(body);
}

/**
 * Rewrites a token endpoint response when it is an OAuth error in disguise: a 200 whose JSON body
 * has `error` becomes a 400 (otherwise the SDK fails schema validation and treats a dead refresh
 * token as a transient problem), and the non-standard refresh errors become `invalid_grant` (so the
 * SDK drops the token and asks for a new sign-in instead of retrying it).
 */
export async function normaliseTokenResponse(res: Response): Promise<Response> {
  const type = res.headers.get('content-type') ?? '';
  if (res.status >= 500 || (res.status >= 300 && res.status < 400) || (res.ok && !type.includes('json'))) return res;
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  }
  const err = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  if (typeof err !== 'string') {
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  }
  const fixed = { ...(body as Record<string, unknown>), error: INVALID_GRANT_ALIASES.has(err) ? 'invalid_grant' : err };
  const headers = new Headers(res.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Response(JSON.stringify(fixed), {
    status: res.ok ? 400 : res.status,
    statusText: res.ok ? 'Bad Request' : res.statusText,
    headers,
  });
}

export function createOAuthFetch(base: FetchLike = (u, i) => fetch(u, i), observer?: OAuthFetchObserver): FetchLike {
  return async (url, init) => {
    const res = await base(url, init);
    if (isTokenRequest(init)) return normaliseTokenResponse(res);
    if (res.status === 403 && observer?.onInsufficientScope) {
      const { error, scope } = extractWWWAuthenticateParams(res);
      if (error === 'insufficient_scope') observer.onInsufficientScope(scope);
    } else if (res.status === 401 && observer?.onUnauthorized) {
      const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(res);
      observer.onUnauthorized({ scope, resourceMetadataUrl: resourceMetadataUrl?.href });
    }
    return res;
  };
}
