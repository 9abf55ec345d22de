/**
 * Sign-in against a small loopback authorization server, for the issuer check of the two discovery
 * paths: MCP 2025-03-26 (no protected-resource metadata, metadata at the origin naming an issuer
 * under it) is accepted; RFC 9728 discovery with a mismatching issuer, a foreign-origin issuer on
 * the legacy path, and a wrong RFC 9207 `iss` on the redirect are still refused.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { AuthError, createHostAuth, createLoopbackReceiver } from '../../../src/core/auth/index.js';
import { FakeBrowser, FakeClock, MemoryKeyValueStore, MemoryLogger, MemorySecretStore } from '../../support/fakes.js';

interface Behaviour {
  /** Serve protected-resource metadata naming `<origin>/oauth` as the authorization server (RFC 9728). */
  prm: boolean;
  /** The issuer the authorization server metadata names. */
  issuer: (origin: string) => string;
  /** The `iss` the authorization response carries. */
  iss?: (origin: string) => string;
}

let server: Server;
let origin = '';
let behaviour: Behaviour;
const tokenRequests: string[] = [];

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function body(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const chunk of req) s += String(chunk);
  return s;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  const metadata = {
    issuer: behaviour.issuer(origin),
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    ...(behaviour.iss ? { authorization_response_iss_parameter_supported: true } : {}),
  };
  if (url.pathname === '/mcp') {
    await body(req);
    const challenge = behaviour.prm
      ? `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`
      : 'Bearer';
    return json(res.setHeader('www-authenticate', challenge), 401, { error: 'invalid_token' });
  }
  if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
    if (!behaviour.prm) return json(res, 404, {});
    return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [`${origin}/oauth`] });
  }
  if (url.pathname === '/.well-known/oauth-authorization-server' && !behaviour.prm) return json(res, 200, metadata);
  if (url.pathname === '/.well-known/oauth-authorization-server/oauth' && behaviour.prm)
    return json(res, 200, metadata);
  if (url.pathname === '/oauth/register' && req.method === 'POST') {
    const client = JSON.parse(await body(req)) as Record<string, unknown>;
    return json(res, 201, { ...client, client_id: 'legacy-client' });
  }
  if (url.pathname === '/oauth/authorize') {
    const back = new URL(url.searchParams.get('redirect_uri')!);
    back.searchParams.set('code', 'the-code');
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    if (behaviour.iss) back.searchParams.set('iss', behaviour.iss(origin));
    res.writeHead(302, { location: back.href }).end();
    return;
  }
  if (url.pathname === '/oauth/token' && req.method === 'POST') {
    tokenRequests.push(await body(req));
    return json(res, 200, { access_token: 'legacy-token', token_type: 'Bearer', expires_in: 3600 });
  }
  json(res, 404, {});
}

before(async () => {
  server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

let serial = 0;
async function signIn(b: Behaviour): Promise<{ error?: unknown; hasSession: boolean }> {
  behaviour = b;
  tokenRequests.length = 0;
  const clock = new FakeClock(Date.now());
  const browsing: Promise<unknown>[] = [];
  const browser = new FakeBrowser((url) => {
    browsing.push(
      (async () => {
        const res = await fetch(url, { redirect: 'manual' });
        await res.body?.cancel();
        const back = await fetch(res.headers.get('location')!);
        await back.body?.cancel();
      })(),
    );
  });
  const auth = createHostAuth({
    secrets: new MemorySecretStore(),
    kv: new MemoryKeyValueStore(),
    logger: new MemoryLogger(),
    clock,
    browser,
    receiver: createLoopbackReceiver({ clock }),
    clientName: 'MCP Host tests',
  });
  const def: ServerDefinition = {
    name: `legacy-${++serial}`,
    config: { type: 'http', url: `${origin}/mcp` },
    source: { scope: 'user', file: 'test', jsonPath: [] },
    signature: `url:${origin}/mcp`,
    hash: String(serial),
  };
  let error: unknown;
  await auth.authenticate(def).catch((err: unknown) => (error = err));
  await Promise.all(browsing);
  return { error, hasSession: await auth.hasSession(def) };
}

function assertRefused(r: { error?: unknown; hasSession: boolean }): void {
  assert.ok(r.error instanceof AuthError, String(r.error));
  assert.equal(r.error.code, 'issuer-mismatch', r.error.message);
  assert.equal(r.hasSession, false);
  assert.equal(tokenRequests.length, 0, 'no code was exchanged');
}

describe('issuer check by discovery path', { timeout: 60_000 }, () => {
  test('2025-03-26: metadata at the origin naming an issuer under it signs in', async () => {
    const r = await signIn({ prm: false, issuer: (o) => `${o}/oauth`, iss: (o) => `${o}/oauth` });
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(r.hasSession, true);
    assert.equal(tokenRequests.length, 1);
  });

  test('2025-03-26: the RFC 9207 iss of the redirect is still checked against that issuer', async () => {
    assertRefused(await signIn({ prm: false, issuer: (o) => `${o}/oauth`, iss: (o) => `${o}/attacker` }));
  });

  test('2025-03-26: an issuer on another origin is still refused', async () => {
    assertRefused(await signIn({ prm: false, issuer: () => 'https://elsewhere.example/oauth' }));
  });

  test('RFC 9728: metadata naming another issuer than the one listed is still refused', async () => {
    assertRefused(await signIn({ prm: true, issuer: (o) => `${o}/other` }));
  });
});
