// The per-user upstream settings as parsed (file and JSON path in every problem, secrets only from
// the environment), what refuses them, and the token cache's renewal (the fetch port faked: the
// IdP and the authorization server as their answers).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUpstreamAuth, perUserRefusal, UpstreamTokens } from '../../../src/core/gateway/service/upstream-auth.js';

const FILE = '/etc/mcp-host/team.json';
const entry = (e: Record<string, unknown>) => [{ file: FILE, value: { upstreamAuth: { crm: e } } }];

describe('gateway.upstreamAuth', () => {
  test('a per-user entry, its secrets read from the environment variables it names', () => {
    const { perUser, problems } = parseUpstreamAuth(
      entry({ mode: 'per-user', clientId: 'gw', clientSecretEnv: 'GW_SECRET', scope: 'crm.read' }),
      { GW_SECRET: 's3cret' },
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(perUser.get('crm'), {
      server: 'crm',
      file: FILE,
      clientId: 'gw',
      clientSecret: 's3cret',
      scope: 'crm.read',
    });
  });

  test('problems name the file and the JSON path; a secret in the file is not a key', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ mode: 'per-user' }, /team\.json: gateway\.upstreamAuth\.crm\.clientId: /],
      [{ mode: 'per-user', clientId: 'gw', clientSecret: 'inline' }, /gateway\.upstreamAuth\.crm: Unrecognized key/],
      [
        { mode: 'per-user', clientId: 'gw', clientSecretEnv: 'UNSET' },
        /crm\.clientSecretEnv: the environment variable UNSET is not set/,
      ],
      [{ mode: 'each' }, /gateway\.upstreamAuth\.crm\.mode: /],
    ];
    for (const [e, re] of cases) assert.match(parseUpstreamAuth(entry(e), {}).problems.join('\n'), re);
  });

  test('a later file saying "shared" takes a server back from per-user', () => {
    const docs = [...entry({ mode: 'per-user', clientId: 'gw' }), ...entry({ mode: 'shared' })];
    assert.equal(parseUpstreamAuth(docs, {}).perUser.size, 0);
  });

  test('a stdio server, or none, cannot be per-user: the refusal names file and path', () => {
    const a = parseUpstreamAuth(entry({ mode: 'per-user', clientId: 'gw' }), {}).perUser.get('crm')!;
    assert.match(
      perUserRefusal(a, 'stdio') ?? '',
      /^\/etc\/mcp-host\/team\.json: gateway\.upstreamAuth\.crm: crm is a stdio server/,
    );
    assert.match(perUserRefusal(a, undefined) ?? '', /gateway\.upstreamAuth\.crm: no server "crm" is configured/);
    assert.equal(perUserRefusal(a, 'http'), undefined);
  });
});

describe('UpstreamTokens', () => {
  const a = {
    server: 'crm',
    file: FILE,
    clientId: 'gw',
    idpTokenEndpoint: 'http://idp/token',
    authorizationServer: 'http://as',
  };
  function port(expiresIn: number) {
    const posts: string[] = [];
    let n = 0;
    const fetchFn = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const u = String(url);
      if (u === 'http://as/.well-known/oauth-authorization-server')
        return Response.json({ token_endpoint: 'http://as/token' });
      const body = new URLSearchParams(String(init?.body));
      posts.push(`${u} ${body.get('grant_type')}`);
      if (u === 'http://idp/token')
        return Response.json({
          access_token: `jag-${body.get('subject_token')}`,
          issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        });
      return Response.json({ access_token: `up-${++n}`, expires_in: expiresIn });
    };
    return { posts, fetchFn };
  }

  test('kept until close to expiry, then exchanged again; per person', async () => {
    const long = port(3600);
    const t = new UpstreamTokens(a, 'http://crm/mcp', 'http://idp', {}, long.fetchFn);
    assert.equal(await t.tokenFor('alice', 'at-a'), 'up-1');
    assert.equal(await t.tokenFor('alice', 'at-a'), 'up-1');
    assert.equal(await t.tokenFor('bob', 'at-b'), 'up-2');
    assert.equal(long.posts.filter((p) => p.startsWith('http://idp')).length, 2);
    t.forget('alice', 'up-1');
    assert.equal(await t.tokenFor('alice', 'at-a'), 'up-3');
    // A token within 30 s of its expiry is not used: each call exchanges.
    const short = port(20);
    const s = new UpstreamTokens(a, 'http://crm/mcp', 'http://idp', {}, short.fetchFn);
    assert.equal(await s.tokenFor('alice', 'at-a'), 'up-1');
    assert.equal(await s.tokenFor('alice', 'at-a'), 'up-2');
  });

  test('concurrent calls of one person share one exchange', async () => {
    const p = port(3600);
    const t = new UpstreamTokens(a, 'http://crm/mcp', 'http://idp', {}, p.fetchFn);
    const got = await Promise.all([t.tokenFor('alice', 'x'), t.tokenFor('alice', 'x'), t.tokenFor('alice', 'x')]);
    assert.deepEqual(got, ['up-1', 'up-1', 'up-1']);
    assert.equal(p.posts.length, 2);
  });
});
