/** RFC 7009 requests as sent (client authentication, order, failures) and the per-server client metadata URL. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchLike } from '@modelcontextprotocol/server';
import { NeedsAuthCache } from '../../../src/core/auth/needs-auth-cache.js';
import { HostOAuthProvider } from '../../../src/core/auth/provider.js';
import { revokeTokens } from '../../../src/core/auth/revoke.js';
import { AuthRecordStore, type AuthRecord } from '../../../src/core/auth/store.js';
import { nullLogger } from '../../../src/core/ports.js';
import { FakeClock, MemoryKeyValueStore, MemorySecretStore } from '../../support/fakes.js';

const metadata = {
  issuer: 'https://as.example.com',
  authorization_endpoint: 'https://as.example.com/authorize',
  token_endpoint: 'https://as.example.com/token',
  revocation_endpoint: 'https://as.example.com/revoke',
  response_types_supported: ['code'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
};
const record: AuthRecord = {
  tokens: { access_token: 'at-123456', refresh_token: 'rt-123456', token_type: 'Bearer' },
  discovery: { authorizationServerUrl: metadata.issuer, authorizationServerMetadata: metadata },
};

function recorder(status = 200) {
  const sent: { url: string; headers: Headers; body: URLSearchParams }[] = [];
  const f: FetchLike = async (url, init) => {
    sent.push({ url: String(url), headers: new Headers(init?.headers), body: new URLSearchParams(String(init?.body)) });
    return new Response(null, { status });
  };
  return { sent, f };
}

test('revokes the refresh token first, then the access token, with client_secret_basic (form-encoded parts)', async () => {
  const { sent, f } = recorder();
  const out = await revokeTokens(record, { client_id: 'my client', client_secret: 's:e+cret' }, f);
  assert.deepEqual(out, { kind: 'revoked', tokens: ['refresh_token', 'access_token'] });
  assert.deepEqual(
    sent.map((r) => [r.url, r.body.get('token'), r.body.get('token_type_hint')]),
    [
      ['https://as.example.com/revoke', 'rt-123456', 'refresh_token'],
      ['https://as.example.com/revoke', 'at-123456', 'access_token'],
    ],
  );
  const basic = Buffer.from(sent[0]!.headers.get('authorization')!.replace(/^Basic /, ''), 'base64').toString();
  assert.equal(basic, 'my+client:s%3Ae%2Bcret');
  assert.equal(sent[0]!.body.get('client_secret'), null, 'the secret is not also in the body');
});

test('a public client sends its client_id in the body; no endpoint or no tokens: nothing is sent', async () => {
  const { sent, f } = recorder();
  const pub = {
    ...record,
    discovery: {
      ...record.discovery!,
      authorizationServerMetadata: { ...metadata, token_endpoint_auth_methods_supported: ['none'] },
    },
  };
  await revokeTokens(pub, { client_id: 'public' }, f);
  assert.equal(sent[0]!.body.get('client_id'), 'public');
  assert.equal(sent[0]!.headers.get('authorization'), null);
  const { sent: none, f: f2 } = recorder();
  const noEndpoint = {
    ...record,
    discovery: { ...record.discovery!, authorizationServerMetadata: { ...metadata, revocation_endpoint: undefined } },
  };
  assert.deepEqual(await revokeTokens(noEndpoint, { client_id: 'x' }, f2), { kind: 'not-offered' });
  assert.deepEqual(await revokeTokens({}, { client_id: 'x' }, f2), { kind: 'nothing-to-revoke' });
  assert.equal(none.length, 0);
});

test('a refusing server is reported as failed, not thrown', async () => {
  const { f } = recorder(503);
  assert.deepEqual(await revokeTokens(record, { client_id: 'x' }, f), {
    kind: 'failed',
    message: 'https://as.example.com/revoke answered HTTP 503',
  });
});

test('oauth.clientMetadataUrl of the entry wins over the host-wide one', () => {
  const clock = new FakeClock();
  const ctx = {
    store: new AuthRecordStore(new MemorySecretStore()),
    needsAuth: new NeedsAuthCache(new MemoryKeyValueStore(), clock),
    clock,
    logger: nullLogger,
    clientName: 't',
    clientMetadataUrl: 'https://host.example.com/client.json',
  };
  const mk = (oauth?: Record<string, unknown>) =>
    new HostOAuthProvider(
      {
        name: 's',
        config: { type: 'http', url: 'https://mcp.example.com/mcp', ...(oauth ? { oauth } : {}) },
        source: { scope: 'user', file: 't', jsonPath: [] },
        signature: 's',
        hash: 'h',
      } as never,
      ctx,
      { kind: 'background' },
    );
  assert.equal(
    mk({ clientMetadataUrl: 'https://me.example.com/mcp-client.json' }).clientMetadataUrl,
    'https://me.example.com/mcp-client.json',
  );
  assert.equal(mk().clientMetadataUrl, 'https://host.example.com/client.json');
});
