/**
 * Machine-to-machine authorization (SEP-1046) and revocation at Sign Out (RFC 7009) against a
 * real authorization server (oidc-provider 9) fronting a real MCP server: client_secret_basic and
 * private_key_jwt clients get tokens without a browser through the host, a missing credential
 * means needs-auth, a wrong one a clear error, and Sign Out revokes what was issued.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuthError,
  createHostAuth,
  createLoopbackReceiver,
  serverAuthKey,
  type HostAuth,
} from '../../../src/core/auth/index.js';
import type { OAuthSettings, ServerDefinition } from '../../../src/core/config/types.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { FakeBrowser, FakeClock, MemoryKeyValueStore, MemorySecretStore, MemoryLogger } from '../../support/fakes.js';
import { M2M_BASIC, M2M_JWT, startOidcFixture, type OidcFixture } from './oidc-fixture.js';

let fx: OidcFixture;
const hosts: McpHost[] = [];
before(async () => {
  fx = await startOidcFixture();
});
after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  await fx.close();
});

let serial = 0;
function setup(oauth: OAuthSettings, browser = new FakeBrowser()) {
  const secrets = new MemorySecretStore();
  const logger = new MemoryLogger();
  const auth: HostAuth = createHostAuth({
    secrets,
    kv: new MemoryKeyValueStore(),
    logger,
    clock: new FakeClock(Date.now()),
    browser,
    receiver: createLoopbackReceiver(),
    clientName: 'MCP Host tests',
  });
  const name = `m2m-${++serial}`;
  const def: ServerDefinition = {
    name,
    config: { type: 'http', url: fx.mcpUrl, oauth },
    source: { scope: 'user', file: 'test', jsonPath: [] },
    signature: `url:${fx.mcpUrl}#${serial}`,
    hash: String(serial),
  };
  const host = createHost({
    logger: logger,
    blobDir: mkdtempSync(join(tmpdir(), 'mcp-host-m2m-')),
    authProvider: (d) => auth.providerFor(d),
  });
  hosts.push(host);
  const stored = () =>
    JSON.parse(secrets.map.get(serverAuthKey(def)) ?? '{}') as {
      tokens?: { access_token: string };
      clientSecret?: string;
      privateKey?: string;
      boundIssuer?: string;
    };
  return { auth, def, host, secrets, logger, stored, browser };
}

async function whoami(host: McpHost, server: string): Promise<string> {
  const r = await host.callTool(server, 'whoami', {});
  return r.content.map((c) => ('text' in c ? c.text : '')).join('');
}

describe('client credentials (SEP-1046) against oidc-provider', { timeout: 120_000 }, () => {
  test('client_secret_basic: needs-auth until the secret is stored, then tokens without a browser; Sign Out revokes them', async () => {
    const s = setup({ clientId: M2M_BASIC.clientId, grantType: 'client_credentials' });
    s.host.setDefinitions([s.def]);
    await s.host.whenSettled();
    const st = s.host.server(s.def.name)!.state;
    assert.equal(st.kind, 'needs-auth', JSON.stringify(st));
    assert.match(st.kind === 'needs-auth' ? st.message : '', /client credentials|client secret/i);
    assert.equal(await s.auth.missingClientCredential(s.def), 'client secret');

    await s.auth.setClientSecret(s.def, M2M_BASIC.clientSecret);
    assert.equal(await s.auth.missingClientCredential(s.def), undefined);
    await s.host.restart(s.def.name);
    await s.host.whenSettled();
    assert.equal(
      s.host.server(s.def.name)!.state.kind,
      'connected',
      JSON.stringify([s.host.server(s.def.name)!.state, s.logger.lines.slice(-8)]),
    );
    assert.match(await whoami(s.host, s.def.name), /hello/);
    assert.equal(s.browser.opened.length, 0, 'no browser for a machine client');
    const token = s.stored().tokens!.access_token;
    assert.equal(s.stored().boundIssuer, fx.issuer, 'the credentials are now bound to the server that accepted them');
    assert.ok(await fx.provider.ClientCredentials.find(token), 'the authorization server knows the token');
    assert.ok(
      !s.logger.lines.some((l) => l.includes(M2M_BASIC.clientSecret) || l.includes(token)),
      'neither secret nor token is logged',
    );

    const outcome = await s.auth.signOut(s.def);
    assert.deepEqual(outcome, { kind: 'revoked', tokens: ['access_token'] });
    assert.equal(
      await fx.provider.ClientCredentials.find(token),
      undefined,
      'the token is revoked at the authorization server',
    );
    assert.deepEqual(s.stored(), {}, 'tokens and the client secret are forgotten');
  });

  test('private_key_jwt: a signed assertion gets the token; authenticate() checks the key at once', async () => {
    const s = setup({
      clientId: M2M_JWT.clientId,
      grantType: 'client_credentials',
      tokenEndpointAuthMethod: 'private_key_jwt',
      signingAlgorithm: M2M_JWT.algorithm,
    });
    assert.equal(await s.auth.missingClientCredential(s.def), 'private key');
    await assert.rejects(
      s.auth.authenticate(s.def),
      (e: unknown) => e instanceof AuthError && e.code === 'config' && /no private key is stored/.test(e.message),
    );

    const wrong = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    await s.auth.setPrivateKey(s.def, wrong);
    await assert.rejects(
      s.auth.authenticate(s.def),
      (e: unknown) =>
        e instanceof AuthError && e.code === 'token' && /did not issue a token for client "m2m-jwt"/.test(e.message),
    );

    await s.auth.setPrivateKey(s.def, M2M_JWT.privateKeyPem);
    await s.auth.authenticate(s.def);
    assert.ok(s.stored().tokens?.access_token, 'authenticate stored a token');
    s.host.setDefinitions([s.def]);
    await s.host.whenSettled();
    assert.equal(s.host.server(s.def.name)!.state.kind, 'connected');
    assert.match(await whoami(s.host, s.def.name), /hello/);
  });

  test('a configured issuer that is not the advertised authorization server keeps the secret from being sent', async () => {
    const s = setup({
      clientId: M2M_BASIC.clientId,
      grantType: 'client_credentials',
      issuer: 'https://login.example.com',
    });
    await s.auth.setClientSecret(s.def, M2M_BASIC.clientSecret);
    await assert.rejects(
      s.auth.authenticate(s.def),
      (e: unknown) => e instanceof AuthError && /login\.example\.com|issuer|authorization server/i.test(e.message),
    );
    assert.equal(s.stored().tokens, undefined);
  });
});

describe('revocation at Sign Out (RFC 7009) after a browser sign-in', { timeout: 120_000 }, () => {
  test('the refresh token and the access token are revoked, then forgotten', async () => {
    const browsing: Promise<unknown>[] = [];
    const browser = new FakeBrowser((url) =>
      browsing.push(
        fx
          .follow(url)
          .then((r) => fetch(r))
          .then((r) => r.text()),
      ),
    );
    const s = setup({}, browser);
    await s.auth.authenticate(s.def);
    await Promise.all(browsing);
    const rec = JSON.parse(s.secrets.map.get(serverAuthKey(s.def))!) as {
      tokens: { access_token: string; refresh_token?: string };
    };
    assert.ok(await fx.provider.AccessToken.find(rec.tokens.access_token));
    const outcome = await s.auth.signOut(s.def);
    assert.equal(outcome.kind, 'revoked');
    assert.deepEqual(
      outcome.kind === 'revoked' ? outcome.tokens : [],
      rec.tokens.refresh_token ? ['refresh_token', 'access_token'] : ['access_token'],
    );
    assert.equal(await fx.provider.AccessToken.find(rec.tokens.access_token), undefined, 'access token revoked');
    if (rec.tokens.refresh_token)
      assert.equal(await fx.provider.RefreshToken.find(rec.tokens.refresh_token), undefined, 'refresh token revoked');
    assert.equal(s.secrets.map.get(serverAuthKey(s.def)), undefined);
  });

  test('an authorization server without a revocation endpoint: Sign Out still forgets the tokens', async () => {
    const s = setup({});
    await s.secrets.store(
      serverAuthKey(s.def),
      JSON.stringify({
        tokens: { access_token: 'opaque-token-1234', token_type: 'Bearer' },
        discovery: {
          authorizationServerUrl: fx.issuer,
          authorizationServerMetadata: {
            issuer: fx.issuer,
            authorization_endpoint: `${fx.issuer}/auth`,
            token_endpoint: `${fx.issuer}/token`,
            response_types_supported: ['code'],
          },
        },
        client: { client_id: 'x' },
      }),
    );
    assert.deepEqual(await s.auth.signOut(s.def), { kind: 'not-offered' });
    assert.equal(s.secrets.map.get(serverAuthKey(s.def)), undefined);
  });
});
