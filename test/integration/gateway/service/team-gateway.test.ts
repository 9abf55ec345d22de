// The team gateway (GatewayService) in front of real servers, with a real authorization server
// (oidc-provider issuing JWT access tokens for a resource indicator) and SDK clients as agents:
// tokens for another resource, expired, forged, opaque or missing are refused with the challenge
// MCP clients follow; people get the profile their groups give them, and no one else's session.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { Gateway, GatewayViews } from '../../../../src/core/gateway/index.js';
import { GatewayService } from '../../../../src/core/gateway/service/service.js';
import type { ServiceAuth } from '../../../../src/core/gateway/service/config.js';
import { TokenVerifier } from '../../../../src/core/gateway/service/tokens.js';
import { createHost, type McpHost } from '../../../../src/core/host.js';
import { MemoryLogger, stdioDef, tempDir } from '../../connection/helpers.js';
import { closeAgent, text } from '../helpers.js';
import { AGENT_APP, BROWSER_USER, SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';

let idp: TeamIdp;
let host: McpHost;
let gateway: Gateway;
let service: GatewayService;
const PROFILES = {
  eng: { servers: ['alpha'], groups: ['engineering'] },
  ops: { servers: ['beta'], groups: ['ops'] },
};

before(async () => {
  idp = await startTeamIdp();
  const logger = new MemoryLogger();
  host = createHost({ logger, blobDir: tempDir('team-blobs') });
  host.setDefinitions([stdioDef('alpha'), stdioDef('beta')]);
  await host.whenSettled();
  gateway = new Gateway({ host, logger, views: new GatewayViews({ profiles: () => PROFILES }) });
  const auth: ServiceAuth = { issuer: idp.issuer, requiredScopes: [SCOPE], groupsClaim: 'groups', clockToleranceS: 0 };
  service = await GatewayService.start({ gateway, logger, auth, profiles: () => PROFILES, listen: { port: 0 } });
  service.markReady();
});

after(async () => {
  await service?.dispose();
  await gateway?.dispose();
  await host?.dispose();
  await idp?.close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

function post(token: string | undefined, path = '/mcp', headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${service.origin}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: INITIALIZE,
  });
}

async function agentAs(token: string, path = '/mcp', modern = false): Promise<Client> {
  const client = new Client(
    { name: 'team-agent', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${service.origin}${path}`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const now = (): number => Math.floor(Date.now() / 1000);

describe('the team gateway as an OAuth protected resource', { timeout: 120_000 }, () => {
  test('no token: 401 with a challenge naming the metadata, which names the authorization server', async () => {
    const res = await post(undefined);
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /^Bearer /);
    assert.doesNotMatch(challenge, /error=/, 'no token is no error (RFC 6750 §3.1)');
    const url = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    assert.equal(url, `${service.origin}/.well-known/oauth-protected-resource/mcp`);
    const meta = (await (await fetch(url!)).json()) as Record<string, unknown>;
    assert.equal(meta.resource, `${service.origin}/mcp`);
    assert.deepEqual(meta.authorization_servers, [idp.issuer]);
    assert.deepEqual(meta.scopes_supported, [SCOPE]);
  });

  test('a token the issuer made for another resource is refused', async () => {
    const token = await idp.tokenFor('alice', 'https://other.example.com/mcp');
    const res = await post(token);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });

  test('an expired token, signed by the issuer’s own key, is refused', async () => {
    const token = idp.signAsIssuer({
      sub: 'alice',
      aud: service.resource,
      scope: SCOPE,
      exp: now() - 60,
      iat: now() - 660,
    });
    const res = await post(token);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /expired/);
  });

  test('a forged signature is refused, and so is an opaque token', async () => {
    const forged = idp.forge({ sub: 'alice', aud: service.resource, scope: SCOPE, exp: now() + 600 });
    assert.equal((await post(forged)).status, 401);
    assert.equal((await post('an-opaque-token-0123456789')).status, 401);
  });

  test('a valid token without the required scope gets 403 insufficient_scope', async () => {
    const token = idp.signAsIssuer({ sub: 'alice', aud: service.resource, scope: 'openid', exp: now() + 600 });
    const res = await post(token);
    assert.equal(res.status, 403);
    assert.match(res.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
  });

  test('an issuer that cannot be reached is 503 (retry), not a 401 that sends the agent to sign in', async () => {
    const unreachable = new TokenVerifier(
      { issuer: 'http://127.0.0.1:1', requiredScopes: [], groupsClaim: 'groups', clockToleranceS: 0 },
      service.resource,
    );
    const token = await idp.tokenFor('alice', service.resource);
    assert.equal(((await unreachable.verify(`Bearer ${token}`)) as { status: number }).status, 503);
  });

  test('a browser origin is refused even with a good token', async () => {
    const token = await idp.tokenFor('alice', service.resource);
    assert.equal((await post(token, '/mcp', { origin: 'https://evil.example' })).status, 403);
  });
});

describe('who the caller is decides what they get', { timeout: 120_000 }, () => {
  test('two people see two profiles, in both eras', async () => {
    const alice = await agentAs(await idp.tokenFor('alice', service.resource));
    const bob = await agentAs(await idp.tokenFor('bob', service.resource), '/mcp', true);
    try {
      const aliceTools = (await alice.listTools()).tools.map((t) => t.name);
      const bobTools = (await bob.listTools()).tools.map((t) => t.name);
      assert.ok(
        aliceTools.includes('alpha__echo') && !aliceTools.some((n) => n.startsWith('beta__')),
        aliceTools.join(),
      );
      assert.ok(bobTools.includes('beta__echo') && !bobTools.some((n) => n.startsWith('alpha__')), bobTools.join());
      assert.equal(text(await bob.callTool({ name: 'beta__echo', arguments: { text: 'hi' } })), 'echo: hi');
      const other = await bob.callTool({ name: 'alpha__echo', arguments: { text: 'hi' } }).catch((e: Error) => e);
      assert.ok(other instanceof Error || other.isError === true, 'bob may not call alice’s server');
    } finally {
      await closeAgent(alice);
      await bob.close();
    }
  });

  test('someone in no profile’s group is refused, and so is another group’s profile', async () => {
    assert.equal((await post(await idp.tokenFor('carol', service.resource))).status, 403);
    assert.equal((await post(await idp.tokenFor('alice', service.resource), '/mcp/ops')).status, 403);
    assert.equal((await post(await idp.tokenFor('bob', service.resource), '/mcp/ops')).status, 200);
  });

  test('a session is its opener’s: another person with its id gets 404', async () => {
    const res = await post(await idp.tokenFor('alice', service.resource));
    const sid = res.headers.get('mcp-session-id');
    await res.body?.cancel();
    assert.ok(sid);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const as = async (person: string): Promise<number> =>
      (
        await fetch(service.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sid,
            'mcp-protocol-version': '2025-11-25',
            authorization: `Bearer ${await idp.tokenFor(person, service.resource)}`,
          },
          body: list,
        })
      ).status;
    assert.equal(await as('bob'), 404);
    assert.equal(await as('alice'), 200);
  });

  test('an SDK agent with an OAuth provider follows the 401, signs in and is served its profile', async () => {
    let tokens: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
    let info: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
    let verifier = '';
    let redirected: URL | undefined;
    const provider: OAuthClientProvider = {
      redirectUrl: 'http://127.0.0.1/callback',
      clientMetadata: {
        client_name: AGENT_APP,
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: SCOPE,
      },
      clientInformation: () => info,
      saveClientInformation: (i) => void (info = i),
      tokens: () => tokens,
      saveTokens: (t) => void (tokens = t),
      redirectToAuthorization: (url) => void (redirected = url),
      saveCodeVerifier: (v) => void (verifier = v),
      codeVerifier: () => verifier,
    };
    const client = new Client({ name: 'signing-in-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(service.url), { authProvider: provider });
    await assert.rejects(client.connect(transport), UnauthorizedError);
    const asked = redirected as URL | undefined;
    if (!asked) throw new Error('the SDK did not ask for a sign-in');
    assert.ok(asked.href.startsWith(idp.issuer), `sent to the issuer to sign in: ${asked.href}`);
    assert.equal(asked.searchParams.get('resource'), service.resource);
    const callback = await idp.follow(asked.href);
    // The whole callback: the SDK checks its `iss` (RFC 9207) before the code.
    await transport.finishAuth(callback.searchParams);
    const signedIn = new Client({ name: 'signing-in-agent', version: '1.0.0' });
    await signedIn.connect(new StreamableHTTPClientTransport(new URL(service.url), { authProvider: provider }));
    try {
      const names = (await signedIn.listTools()).tools.map((t) => t.name);
      // dana is in engineering: the eng profile, alpha only.
      assert.ok(
        names.includes('alpha__echo') && !names.some((n) => n.startsWith('beta__')),
        `${BROWSER_USER}: ${names.join()}`,
      );
    } finally {
      await closeAgent(signedIn);
    }
  });
});
