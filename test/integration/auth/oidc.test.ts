/**
 * OAuth end to end against a real authorization server (oidc-provider 9) fronting a real
 * Streamable HTTP MCP server: DCR + PKCE sign-in, refresh before expiry and after a 401, a dead
 * refresh token ending in needs-auth (and no further probes), a forged `state` refused.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client,
  UnauthorizedError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { createHost } from '../../../src/core/host.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuthError,
  authFetchFor,
  createHostAuth,
  createLoopbackReceiver,
  isAuthRequired,
  NEEDS_AUTH_TTL_MS,
  serverAuthKey,
  type HostAuth,
} from '../../../src/core/auth/index.js';
import { FakeBrowser, FakeClock, MemoryKeyValueStore, MemorySecretStore, MemoryLogger } from '../../support/fakes.js';
import { startOidcFixture, type OidcFixture } from './oidc-fixture.js';

let fx: OidcFixture;
before(async () => {
  fx = await startOidcFixture();
});
after(async () => {
  await fx.close();
});

interface Setup {
  auth: HostAuth;
  def: ServerDefinition;
  secrets: MemorySecretStore;
  clock: FakeClock;
  logger: MemoryLogger;
  browser: FakeBrowser;
  /** Settles once the "browser" has delivered the redirect to the loopback receiver. */
  browsing: Promise<unknown>[];
}

let open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
  open = [];
});

let serial = 0;
function setup(tamper?: (redirect: URL) => void, type: 'http' | 'sse' = 'http'): Setup {
  const secrets = new MemorySecretStore();
  const clock = new FakeClock(Date.now());
  const logger = new MemoryLogger();
  const browsing: Promise<unknown>[] = [];
  const browser = new FakeBrowser((url) => {
    browsing.push(
      (async () => {
        const redirect = await fx.follow(url);
        tamper?.(redirect);
        const res = await fetch(redirect);
        return { status: res.status, body: await res.text() };
      })(),
    );
  });
  const auth = createHostAuth({
    secrets,
    kv: new MemoryKeyValueStore(),
    logger,
    clock,
    browser,
    receiver: createLoopbackReceiver({ clock }),
    clientName: 'MCP Host tests',
  });
  const url = type === 'http' ? fx.mcpUrl : fx.sseUrl;
  const def: ServerDefinition = {
    name: `protected-${++serial}`,
    config: { type, url },
    source: { scope: 'user', file: 'test', jsonPath: [] },
    signature: `url:${url}`,
    hash: String(serial),
  };
  return { auth, def, secrets, clock, logger, browser, browsing };
}

async function connect(s: Setup): Promise<Client> {
  const provider = s.auth.providerFor(s.def)!;
  const url = new URL((s.def.config as { url: string }).url);
  const opts = { authProvider: provider, fetch: authFetchFor(provider) };
  const transport =
    s.def.config.type === 'sse' ? new SSEClientTransport(url, opts) : new StreamableHTTPClientTransport(url, opts);
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  open.push(client);
  await client.connect(transport);
  return client;
}

async function whoami(client: Client): Promise<string> {
  const r = await client.callTool({ name: 'whoami', arguments: {} });
  return (r.content as { type: string; text: string }[])[0]!.text;
}

function record(s: Setup): {
  tokens?: { access_token: string; refresh_token?: string; issuer?: string };
  expiresAt?: number;
  client?: { client_id: string };
} {
  const raw = s.secrets.map.get(serverAuthKey(s.def));
  return raw ? JSON.parse(raw) : {};
}

async function signIn(s: Setup): Promise<void> {
  await s.auth.authenticate(s.def);
  await Promise.all(s.browsing);
}

describe('OAuth against oidc-provider', { timeout: 120_000 }, () => {
  test('before sign-in a background connect ends in needs-auth, and is not repeated for 15 minutes', async () => {
    const s = setup();
    const before = fx.mcpRequests.length;
    await assert.rejects(connect(s), (err: unknown) => err instanceof UnauthorizedError && isAuthRequired(err));
    const probes = fx.mcpRequests.length - before;
    assert.ok(probes >= 1, 'the first connect reaches the server');
    assert.equal(s.browser.opened.length, 0, 'a background connect never opens the browser');
    assert.equal(record(s).client, undefined, 'and never registers a client');

    await assert.rejects(connect(s), (err: unknown) => isAuthRequired(err));
    assert.equal(fx.mcpRequests.length - before, probes, 'inside the quiet period the server is not probed');

    s.clock.advance(NEEDS_AUTH_TTL_MS + 1);
    await assert.rejects(connect(s), (err: unknown) => isAuthRequired(err));
    assert.ok(fx.mcpRequests.length - before > probes, 'after 15 minutes it is probed again');
  });

  test('authorization code + PKCE + dynamic registration, then the connection uses the token', async () => {
    const s = setup();
    await signIn(s);
    assert.equal(s.browser.opened.length, 1);
    const url = new URL(s.browser.opened[0]!);
    assert.equal(url.origin, fx.issuer);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.ok((url.searchParams.get('state') ?? '').length >= 32, 'a long random state');
    assert.equal(url.searchParams.get('resource'), fx.mcpUrl, 'RFC 8707 resource sent');
    // SDK v2 adds offline_access where the authorization server offers it (SEP-2207), for a refresh token.
    assert.equal(
      url.searchParams.get('scope'),
      'mcp:tools offline_access',
      'scope from the WWW-Authenticate challenge, plus offline_access',
    );
    assert.match(url.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    const browserPage = (await s.browsing[0]) as { status: number; body: string };
    assert.equal(browserPage.status, 200);
    assert.match(browserPage.body, /close this tab/);

    const rec = record(s);
    assert.ok(rec.tokens?.access_token && rec.tokens.refresh_token, 'tokens stored');
    assert.ok(rec.client?.client_id, 'registration stored');
    assert.equal(rec.tokens.issuer, fx.issuer, 'issuer kept with the tokens');

    const client = await connect(s);
    assert.equal(await whoami(client), 'hello test-user');
    const secrets = [rec.tokens.access_token, rec.tokens.refresh_token];
    for (const line of s.logger.lines)
      for (const secret of secrets) assert.ok(!line.includes(secret), 'no token in logs');
  });

  test('a token past its expiry is refreshed before the request, without the user', async () => {
    const s = setup();
    await signIn(s);
    const first = record(s).tokens!;
    // Make the old access token worthless at the server and move time past its expiry.
    await (await fx.provider.AccessToken.find(first.access_token))!.destroy();
    s.clock.advance(3600 * 1000);

    const before = fx.mcpRequests.length;
    const client = await connect(s);
    assert.equal(await whoami(client), 'hello test-user');
    assert.ok(
      fx.mcpRequests.slice(before).every((r) => r.authorized),
      'refreshed before sending: the server never saw the old token',
    );
    const second = record(s).tokens!;
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token, 'rotated refresh token stored');
    assert.equal(s.browser.opened.length, 1, 'no second browser sign-in');
    assert.ok(record(s).expiresAt! > s.clock.now(), 'new expiry tracked');
  });

  test('a token the server refuses (401) before its expiry is refreshed too', async () => {
    const s = setup();
    await signIn(s);
    const first = record(s).tokens!;
    await (await fx.provider.AccessToken.find(first.access_token))!.destroy();

    const before = fx.mcpRequests.length;
    const client = await connect(s);
    assert.equal(await whoami(client), 'hello test-user');
    assert.ok(
      fx.mcpRequests.slice(before).some((r) => !r.authorized),
      'the server refused the old token first',
    );
    assert.notEqual(record(s).tokens!.access_token, first.access_token);
    assert.equal(s.browser.opened.length, 1);
  });

  test('a revoked refresh token ends in needs-auth, without a loop or further probes', async () => {
    const s = setup();
    await signIn(s);
    const first = record(s).tokens!;
    await (await fx.provider.AccessToken.find(first.access_token))!.destroy();
    await (await fx.provider.RefreshToken.find(first.refresh_token!))!.destroy();
    s.clock.advance(3600 * 1000);

    const before = fx.mcpRequests.length;
    await assert.rejects(connect(s), (err: unknown) => err instanceof UnauthorizedError && isAuthRequired(err));
    assert.equal(record(s).tokens, undefined, 'the dead tokens are dropped');
    assert.ok(record(s).client, 'the registration is kept for the next sign-in');
    assert.ok(s.auth.needsAuthCache.isFresh(s.auth.keyFor(s.def)));
    const after = fx.mcpRequests.length;
    assert.ok(after - before <= 2, `at most one request and its retry reach the server (saw ${after - before})`);

    await assert.rejects(connect(s), (err: unknown) => isAuthRequired(err));
    assert.equal(fx.mcpRequests.length, after, 'not probed again');

    // Signing in again recovers.
    await signIn(s);
    assert.equal(await whoami(await connect(s)), 'hello test-user');
  });

  test('a redirect with the wrong state gets an error page, is ignored (the sign-in keeps waiting) and nothing is saved', async () => {
    const s = setup((redirect) => redirect.searchParams.set('state', 'forged-state-value-0123456789abcdef'));
    const ac = new AbortController();
    // The browser is asked right after the URL is announced; the page is what it got back.
    let signIn!: Promise<void>;
    const opened = new Promise<void>((resolve) => {
      signIn = s.auth.authenticate(s.def, { signal: ac.signal, onAuthorizationUrl: () => setImmediate(resolve) });
    });
    try {
      await opened;
      const page = (await s.browsing[0]) as { status: number; body: string };
      assert.equal(page.status, 400);
      assert.match(page.body, /state mismatch/);
    } finally {
      // The clock is fake, so only the abort ends the waiting sign-in (and its listener).
      ac.abort();
    }
    await assert.rejects(signIn, (err: unknown) => err instanceof AuthError && err.code === 'cancelled');
    assert.equal(record(s).tokens, undefined);
    assert.equal(await s.auth.hasSession(s.def), false);
  });

  test('the legacy SSE transport: needs-auth before sign-in, then connected with the token', async () => {
    const s = setup(undefined, 'sse');
    await assert.rejects(connect(s), (err: unknown) => isAuthRequired(err));
    await signIn(s);
    assert.equal(new URL(s.browser.opened[0]!).searchParams.get('resource'), fx.sseUrl);
    assert.equal(await whoami(await connect(s)), 'hello test-user');
  });

  test('sign out removes tokens and registration', async () => {
    const s = setup();
    await signIn(s);
    assert.equal(await s.auth.hasSession(s.def), true);
    await s.auth.signOut(s.def);
    assert.equal(s.secrets.map.size, 0);
    await assert.rejects(connect(s), (err: unknown) => isAuthRequired(err));
  });

  test('through the host: tokens revoked mid-session turn a call into needs-auth, not a generic error', async () => {
    const s = setup();
    await signIn(s);
    const host = createHost({
      logger: s.logger,
      blobDir: mkdtempSync(join(tmpdir(), 'mcp-oauth-blobs-')),
      env: {},
      authProvider: (d) => s.auth.providerFor(d),
    });
    try {
      host.setDefinitions([s.def]);
      await host.whenSettled();
      assert.equal(host.server(s.def.name)!.state.kind, 'connected');
      const ok = await host.callTool(s.def.name, 'whoami', {});
      assert.deepEqual(ok.content, [{ type: 'text', text: 'hello test-user' }]);

      const tokens = record(s).tokens!;
      await (await fx.provider.AccessToken.find(tokens.access_token))!.destroy();
      await (await fx.provider.RefreshToken.find(tokens.refresh_token!))!.destroy();
      await assert.rejects(
        host.callTool(s.def.name, 'whoami', {}),
        (err: unknown) => (err as { code?: string }).code === 'needs-auth',
      );
      const needsAuth = await new Promise<string>((resolve) => {
        if (host.server(s.def.name)!.state.kind === 'needs-auth') return resolve('needs-auth');
        const sub = host.onDidChangeServer((e) => {
          if (e.name === s.def.name && e.snapshot?.state.kind === 'needs-auth') {
            sub.dispose();
            resolve('needs-auth');
          }
        });
      });
      assert.equal(needsAuth, 'needs-auth');
    } finally {
      await host.dispose();
    }
  });
});
