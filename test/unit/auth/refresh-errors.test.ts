/** Refresh error normalisation, checked through the SDK's own refreshAuthorization(). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchLike } from '@modelcontextprotocol/client';
import { OAuthError, OAuthErrorCode, refreshAuthorization } from '@modelcontextprotocol/client';
import { createOAuthFetch } from '../../../src/core/auth/oauth-fetch.js';

const metadata = {
  issuer: 'https://as.example.com',
  authorization_endpoint: 'https://as.example.com/authorize',
  token_endpoint: 'https://as.example.com/token',
  response_types_supported: ['code'],
};

/** v2 has one OAuth error class; the code tells the errors apart. */
const oauthError =
  (code: OAuthErrorCode) =>
  (err: unknown): boolean =>
    err instanceof OAuthError && err.code === code;

function answering(status: number, body: unknown): FetchLike {
  return async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function refresh(base: FetchLike) {
  return refreshAuthorization(metadata.issuer, {
    metadata,
    clientInformation: { client_id: 'c' },
    refreshToken: 'rt-123456',
    fetchFn: createOAuthFetch(base),
  });
}

for (const alias of ['invalid_refresh_token', 'expired_refresh_token', 'token_expired', 'invalid_grant']) {
  test(`${alias} from the token endpoint is invalid_grant`, async () => {
    await assert.rejects(refresh(answering(400, { error: alias })), oauthError(OAuthErrorCode.InvalidGrant));
  });
}

test('a 200 whose body is an OAuth error is treated as a 400 error', async () => {
  await assert.rejects(
    refresh(answering(200, { error: 'invalid_refresh_token', error_description: 'gone' })),
    oauthError(OAuthErrorCode.InvalidGrant),
  );
  await assert.rejects(
    refresh(answering(200, { error: 'invalid_request' })),
    oauthError(OAuthErrorCode.InvalidRequest),
  );
  // SDK v2 reads a 200 error body itself, but without the normalising fetch an alias stays what
  // it was and is not taken for invalid_grant.
  await assert.rejects(
    refreshAuthorization(metadata.issuer, {
      metadata,
      clientInformation: { client_id: 'c' },
      refreshToken: 'r',
      fetchFn: answering(200, { error: 'invalid_refresh_token' }),
    }),
    (err: unknown) => !oauthError(OAuthErrorCode.InvalidGrant)(err),
  );
});

test('other errors and good answers pass through unchanged', async () => {
  await assert.rejects(
    refresh(answering(503, { error: 'temporarily_unavailable' })),
    oauthError(OAuthErrorCode.TemporarilyUnavailable),
  );
  const tokens = await refresh(answering(200, { access_token: 'at', token_type: 'Bearer', expires_in: 60 }));
  assert.equal(tokens.access_token, 'at');
  assert.equal(tokens.refresh_token, 'rt-123456', 'the SDK keeps the old refresh token when none comes back');
});

test('403 insufficient_scope is reported to the observer with the scope asked for; other responses are untouched', async () => {
  const seen: (string | undefined)[] = [];
  const challenges: unknown[] = [];
  const f = createOAuthFetch(
    async (url) =>
      String(url).endsWith('/forbidden')
        ? new Response('no', {
            status: 403,
            headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="a b"' },
          })
        : new Response('stream', {
            status: 401,
            headers: {
              'www-authenticate':
                'Bearer resource_metadata="https://r.example/.well-known/oauth-protected-resource", scope="a"',
            },
          }),
    { onInsufficientScope: (s) => seen.push(s), onUnauthorized: (c) => challenges.push(c) },
  );
  const r = await f('https://r.example/forbidden', { method: 'POST', body: '{}' });
  assert.equal(await r.text(), 'no');
  assert.deepEqual(seen, ['a b']);
  await f('https://r.example/mcp', { method: 'GET' });
  assert.deepEqual(challenges, [
    { scope: 'a', resourceMetadataUrl: 'https://r.example/.well-known/oauth-protected-resource' },
  ]);
});
