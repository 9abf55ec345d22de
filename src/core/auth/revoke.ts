/**
 * Token revocation at Sign Out (RFC 7009). The SDK has no revocation call, so this is the small
 * request the RFC describes: POST `token` + `token_type_hint` to the authorization server's
 * `revocation_endpoint` with the client's authentication (chosen by the SDK's
 * `selectClientAuthMethod`, as for the token endpoint). Best effort: Sign Out forgets the tokens
 * locally whatever the server answers, and the outcome is only reported.
 */
import { selectClientAuthMethod } from '@modelcontextprotocol/client';
import type {
  AddClientAuthentication,
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  FetchLike,
} from '@modelcontextprotocol/client';
import type { AuthRecord } from './store.js';

export type RevocationOutcome =
  | { kind: 'revoked'; tokens: ('refresh_token' | 'access_token')[] }
  | { kind: 'not-offered' }
  | { kind: 'nothing-to-revoke' }
  | { kind: 'failed'; message: string };

const REVOKE_TIMEOUT_MS = 10_000;

function applyAuth(
  client: OAuthClientInformationMixed,
  supported: string[],
  headers: Headers,
  params: URLSearchParams,
): void {
  const method = selectClientAuthMethod(client, supported);
  const secret = (client as { client_secret?: string }).client_secret;
  if (method === 'client_secret_basic' && secret) {
    // RFC 6749 §2.3.1: both parts form-urlencoded before Base64.
    const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
    headers.set('Authorization', `Basic ${Buffer.from(`${enc(client.client_id)}:${enc(secret)}`).toString('base64')}`);
    return;
  }
  params.set('client_id', client.client_id);
  if (method === 'client_secret_post' && secret) params.set('client_secret', secret);
}

/**
 * Revokes the refresh token first (servers revoke the access tokens issued from it too), then the
 * access token. `client` is the client the tokens were issued to; `addClientAuthentication`
 * replaces the secret-based authentication (private_key_jwt clients).
 */
export async function revokeTokens(
  record: AuthRecord,
  client: OAuthClientInformationMixed | undefined,
  fetchFn: FetchLike,
  addClientAuthentication?: AddClientAuthentication,
): Promise<RevocationOutcome> {
  const tokens = record.tokens;
  if (!tokens) return { kind: 'nothing-to-revoke' };
  // OpenID discovery metadata is typed without the RFC 8414 revocation fields, but carries them.
  const metadata = record.discovery?.authorizationServerMetadata as
    | (AuthorizationServerMetadata & {
        revocation_endpoint?: string;
        revocation_endpoint_auth_methods_supported?: string[];
      })
    | undefined;
  const endpoint = metadata?.revocation_endpoint;
  if (!endpoint || !client) return { kind: 'not-offered' };
  const supported =
    metadata.revocation_endpoint_auth_methods_supported ?? metadata.token_endpoint_auth_methods_supported ?? [];
  const done: ('refresh_token' | 'access_token')[] = [];
  const list: ['refresh_token' | 'access_token', string | undefined][] = [
    ['refresh_token', tokens.refresh_token],
    ['access_token', tokens.access_token],
  ];
  for (const [hint, token] of list) {
    if (!token) continue;
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    const params = new URLSearchParams({ token, token_type_hint: hint });
    if (addClientAuthentication) await addClientAuthentication(headers, params, endpoint, metadata);
    else applyAuth(client, supported, headers, params);
    let res: Response;
    try {
      res = await fetchFn(endpoint, {
        method: 'POST',
        headers,
        body: params,
        signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
      });
    } catch (err) {
      return {
        kind: 'failed',
        message: `${endpoint} could not be reached (${err instanceof Error ? err.message : String(err)})`,
      };
    }
    await res.body?.cancel().catch(() => undefined);
    // RFC 7009 §2.2: 200 also for a token the server no longer knows.
    if (!res.ok) return { kind: 'failed', message: `${endpoint} answered HTTP ${res.status}` };
    done.push(hint);
  }
  return { kind: 'revoked', tokens: done };
}
