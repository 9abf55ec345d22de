import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { AuthError, AuthRequiredError } from '../../../src/core/auth/errors.js';
import { createHostAuth } from '../../../src/core/auth/index.js';
import { NeedsAuthCache } from '../../../src/core/auth/needs-auth-cache.js';
import { HostOAuthProvider, REFRESH_SKEW_MS, type ProviderMode } from '../../../src/core/auth/provider.js';
import { AuthRecordStore, type AuthRecord } from '../../../src/core/auth/store.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { nullLogger } from '../../../src/core/ports.js';
import { FakeBrowser, FakeClock, MemoryKeyValueStore, MemorySecretStore } from '../../support/fakes.js';

const AS = 'https://as.example.com/';
const metadata = {
  issuer: 'https://as.example.com',
  authorization_endpoint: 'https://as.example.com/authorize',
  token_endpoint: 'https://as.example.com/token',
  response_types_supported: ['code'],
};

function def(oauth?: Record<string, unknown>): ServerDefinition & { config: { type: 'http'; url: string } } {
  return {
    name: 'srv',
    config: { type: 'http', url: 'https://mcp.example.com/mcp', ...(oauth ? { oauth } : {}) },
    source: { scope: 'user', file: 't', jsonPath: [] },
    signature: 'url:https://mcp.example.com/mcp',
    hash: 'h',
  };
}

function make(
  opts: { mode?: ProviderMode; fetch?: FetchLike; record?: AuthRecord; oauth?: Record<string, unknown> } = {},
) {
  const clock = new FakeClock();
  const secrets = new MemorySecretStore();
  const store = new AuthRecordStore(secrets);
  const needsAuth = new NeedsAuthCache(new MemoryKeyValueStore(), clock);
  const provider = new HostOAuthProvider(
    def(opts.oauth) as never,
    {
      store,
      needsAuth,
      clock,
      logger: nullLogger,
      clientName: 'test',
      fetch: opts.fetch ?? (async () => new Response('unexpected', { status: 599 })),
    },
    opts.mode ?? { kind: 'background' },
  );
  return { clock, store, needsAuth, provider, secrets };
}

test('authServerMetadataUrl must be https: a clear config error, in discovery and in sign-in', async () => {
  const { provider } = make({
    oauth: { authServerMetadataUrl: 'http://as.example.com/.well-known/oauth-authorization-server' },
    mode: { kind: 'interactive', redirectUrl: 'http://127.0.0.1:1/callback', openAuthorizationUrl: async () => {} },
  });
  await assert.rejects(
    provider.discoveryState(),
    (err: unknown) => err instanceof AuthError && err.code === 'config' && /must use https/.test(err.message),
  );
  const auth = createHostAuth({
    secrets: new MemorySecretStore(),
    kv: new MemoryKeyValueStore(),
    logger: nullLogger,
    browser: new FakeBrowser(),
    receiver: { start: () => assert.fail('no listener for a bad config') },
  });
  await assert.rejects(
    auth.authenticate(def({ authServerMetadataUrl: 'http://x/meta' })),
    (err: unknown) => err instanceof AuthError && err.code === 'config',
  );
});

test('a configured https metadata URL is used instead of discovery', async () => {
  const asked: string[] = [];
  const { provider } = make({
    oauth: { authServerMetadataUrl: 'https://as.example.com/custom/meta.json' },
    mode: { kind: 'interactive', redirectUrl: 'http://127.0.0.1:1/callback', openAuthorizationUrl: async () => {} },
    fetch: async (url) => {
      asked.push(String(url));
      return Response.json(metadata);
    },
  });
  const state = await provider.discoveryState();
  assert.deepEqual(asked, ['https://as.example.com/custom/meta.json']);
  assert.equal(state?.authorizationServerUrl, metadata.issuer);
  assert.equal(state?.authorizationServerMetadata?.token_endpoint, metadata.token_endpoint);
});

test('background mode never registers a client and marks the server as needing auth', async () => {
  const { provider, needsAuth } = make();
  await assert.rejects(
    provider.clientInformation(),
    (err: unknown) => err instanceof AuthRequiredError && err instanceof UnauthorizedError,
  );
  assert.equal(needsAuth.isFresh(provider.key), true);
  // Inside the quiet period tokens() itself refuses, so the transport sends nothing at all.
  await assert.rejects(provider.tokens(), AuthRequiredError);
});

test('background redirectToAuthorization keeps the scope for the sign-in and throws needs-auth', async () => {
  const { provider, store } = make();
  await assert.rejects(
    provider.redirectToAuthorization(new URL('https://as.example.com/authorize?scope=a+b&state=x')),
    AuthRequiredError,
  );
  assert.equal((await store.read(provider.key)).pendingScope, 'a b');
});

test('interactive mode opens only authorization URLs carrying our state', async () => {
  const opened: string[] = [];
  const { provider } = make({
    mode: {
      kind: 'interactive',
      redirectUrl: 'http://127.0.0.1:1/callback',
      openAuthorizationUrl: async (u) => void opened.push(u.href),
    },
  });
  const state = provider.state();
  assert.ok(state.length >= 40 && state !== provider.state(), 'fresh random state each time');
  const current = provider.pendingState!;
  await assert.rejects(
    provider.redirectToAuthorization(new URL('https://as.example.com/authorize?state=forged')),
    (err: unknown) => err instanceof AuthError && err.code === 'state-mismatch',
  );
  await provider.redirectToAuthorization(new URL(`https://as.example.com/authorize?state=${current}`));
  assert.equal(opened.length, 1);
});

function storedSession(expiresAt: number): AuthRecord {
  return {
    tokens: { access_token: 'old-at', token_type: 'Bearer', refresh_token: 'old-rt', issuer: AS },
    expiresAt,
    client: { client_id: 'cid', issuer: AS },
    discovery: { authorizationServerUrl: AS, authorizationServerMetadata: metadata },
  };
}

test('tokens are refreshed shortly before expiry (Clock), once for concurrent callers', async () => {
  const posts: URLSearchParams[] = [];
  const env = make({
    fetch: async (url, init) => {
      assert.equal(String(url), metadata.token_endpoint);
      posts.push(new URLSearchParams(init!.body as URLSearchParams));
      return Response.json({ access_token: 'new-at', token_type: 'Bearer', expires_in: 3600, refresh_token: 'new-rt' });
    },
  });
  const now = env.clock.now();
  await env.store.update(env.provider.key, () => storedSession(now + REFRESH_SKEW_MS + 10_000));
  assert.equal((await env.provider.tokens())!.access_token, 'old-at', 'not yet');
  assert.equal(posts.length, 0);

  env.clock.advance(10_000);
  const [a, b] = await Promise.all([env.provider.tokens(), env.provider.tokens()]);
  assert.equal(a!.access_token, 'new-at');
  assert.equal(b!.access_token, 'new-at');
  assert.equal(posts.length, 1, 'single flight');
  assert.equal(posts[0]!.get('grant_type'), 'refresh_token');
  assert.equal(posts[0]!.get('refresh_token'), 'old-rt');
  const rec = await env.store.read(env.provider.key);
  assert.equal(rec.tokens!.refresh_token, 'new-rt');
  assert.equal(rec.tokens!.issuer, AS);
  assert.equal(rec.expiresAt, env.clock.now() + 3600_000);
});

test('a refresh token that no longer works ends in needs-auth, tokens dropped, no retry loop', async () => {
  let calls = 0;
  const env = make({
    fetch: async () => {
      calls++;
      return Response.json({ error: 'expired_refresh_token' }, { status: 200 });
    },
  });
  await env.store.update(env.provider.key, () => storedSession(env.clock.now()));
  await assert.rejects(env.provider.tokens(), AuthRequiredError);
  assert.equal(calls, 1);
  const rec = await env.store.read(env.provider.key);
  assert.equal(rec.tokens, undefined);
  assert.ok(rec.client, 'registration kept');
  await assert.rejects(env.provider.tokens(), AuthRequiredError);
  assert.equal(calls, 1, 'not tried again');
});

test('a transient refresh failure keeps the current token', async () => {
  const env = make({ fetch: async () => new Response('down', { status: 503 }) });
  await env.store.update(env.provider.key, () => storedSession(env.clock.now()));
  assert.equal((await env.provider.tokens())!.access_token, 'old-at');
  assert.ok((await env.store.read(env.provider.key)).tokens);
});

test('after a 403 insufficient_scope the refresh token is held back so auth() re-authorizes with the wider scope', async () => {
  const env = make({
    fetch: async () =>
      new Response('', {
        status: 403,
        headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="read write"' },
      }),
  });
  await env.store.update(env.provider.key, () => storedSession(env.clock.now() + 3600_000));
  assert.equal((await env.provider.tokens())!.refresh_token, 'old-rt');
  await env.provider.fetch('https://mcp.example.com/mcp', { method: 'POST', body: '{}' });
  const t = await env.provider.tokens();
  assert.equal(t!.access_token, 'old-at');
  assert.equal(t!.refresh_token, undefined);
  await assert.rejects(
    env.provider.redirectToAuthorization(new URL('https://as.example.com/authorize?scope=read+write')),
    (err: unknown) => err instanceof AuthRequiredError && err.reason === 'step-up',
  );
  assert.equal((await env.store.read(env.provider.key)).pendingScope, 'read write');
});

test('a configured clientId is used with the stored secret and never replaced by a registration', async () => {
  const env = make({ oauth: { clientId: 'pre-registered' } });
  await env.store.update(env.provider.key, (r) => ({ ...r, clientSecret: 'shh' }));
  assert.deepEqual(await env.provider.clientInformation(), { client_id: 'pre-registered', client_secret: 'shh' });
  await env.provider.saveClientInformation({ client_id: 'other' });
  assert.equal((await env.provider.clientInformation())!.client_id, 'pre-registered');
});
