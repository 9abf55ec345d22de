/**
 * A loopback company IdP and MCP servers each behind its own authorization server, for
 * enterprise-managed authorization (SEP-990) end to end. The IdP signs the user in without a page
 * (its authorize endpoint redirects back at once), issues ID and refresh tokens, and exchanges an
 * ID token (RFC 8693) for an ID-JAG only for the audiences it trusts; each authorization server
 * lists jwt-bearer in its metadata or not, and takes an ID-JAG addressed to it (RFC 7523).
 * Tokens are HMAC-signed JWTs: the fixture checks its own signatures, nothing more is modelled.
 * oidc-provider (oidc-fixture.ts) has neither grant, hence this one.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStatelessRequest } from './stateless-mcp.js';

export const IDP_CLIENT_ID = 'mcp-host-desktop';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

export interface ProtectedServerOptions {
  /** Lists jwt-bearer in `grant_types_supported` (default true). */
  acceptsJwtBearer?: boolean;
  /** The IdP issues ID-JAGs for this server's AS (default true). */
  trustedByIdp?: boolean;
  /** The client this AS knows; the IdP names it in the ID-JAG. */
  clientId?: string;
}

export interface ProtectedServer {
  name: string;
  mcpUrl: string;
  issuer: string;
  clientId: string;
  /** Grants its token endpoint saw, in order. */
  grants: string[];
}

export interface CrossAppFixture {
  issuer: string;
  servers: ProtectedServer[];
  /** IdP requests by grant type (and "authorize"). */
  idpRequests: string[];
  /** Follows an authorization URL of the IdP or of an AS (both redirect at once); returns the redirect to the client. */
  follow(url: string): Promise<URL>;
  close(): Promise<void>;
}

const KEY = randomBytes(32);
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
function sign(claims: Record<string, unknown>): string {
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${body}.${createHmac('sha256', KEY).update(body).digest('base64url')}`;
}
function verify(jwt: string | undefined): Record<string, unknown> | undefined {
  const [h, p, s] = (jwt ?? '').split('.');
  if (!h || !p || !s) return undefined;
  if (createHmac('sha256', KEY).update(`${h}.${p}`).digest('base64url') !== s) return undefined;
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  return typeof claims.exp === 'number' && claims.exp * 1000 > Date.now() ? claims : undefined;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startCrossAppFixture(
  specs: (ProtectedServerOptions & { name: string })[],
  opts: { idTokenTtlS?: number } = {},
): Promise<CrossAppFixture> {
  const idpServer = createServer();
  const issuer = `http://127.0.0.1:${await listen(idpServer)}`;
  const idpRequests: string[] = [];
  const refreshTokens = new Set<string>();
  const trusted = new Map<string, string>(); // AS issuer -> client id there
  const http: Server[] = [idpServer];

  const idToken = () =>
    sign({
      iss: issuer,
      sub: 'alice',
      aud: IDP_CLIENT_ID,
      exp: Math.floor(Date.now() / 1000) + (opts.idTokenTtlS ?? 3600),
    });

  idpServer.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname === '/.well-known/openid-configuration')
        return json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          grant_types_supported: ['authorization_code', 'refresh_token', TOKEN_EXCHANGE],
        });
      if (url.pathname === '/authorize') {
        idpRequests.push('authorize');
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', sign({ code: true, exp: Math.floor(Date.now() / 1000) + 60 }));
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      if (url.pathname !== '/token' || req.method !== 'POST') return json(res, 404, { error: 'not_found' });
      const p = await form(req);
      const grant = p.get('grant_type') ?? '';
      idpRequests.push(grant);
      if (grant === 'authorization_code' && verify(p.get('code') ?? undefined)) {
        const refresh = randomBytes(16).toString('hex');
        refreshTokens.add(refresh);
        return json(res, 200, { id_token: idToken(), refresh_token: refresh, token_type: 'Bearer', expires_in: 3600 });
      }
      if (grant === 'refresh_token' && refreshTokens.delete(p.get('refresh_token') ?? '')) {
        const refresh = randomBytes(16).toString('hex');
        refreshTokens.add(refresh);
        return json(res, 200, { id_token: idToken(), refresh_token: refresh, token_type: 'Bearer', expires_in: 3600 });
      }
      if (grant === TOKEN_EXCHANGE) {
        const subject = verify(p.get('subject_token') ?? undefined);
        if (!subject || subject.iss !== issuer) return json(res, 400, { error: 'invalid_grant' });
        const audience = p.get('audience') ?? '';
        const clientAtAs = trusted.get(audience);
        if (!clientAtAs) return json(res, 400, { error: 'invalid_target', error_description: 'audience not trusted' });
        return json(res, 200, {
          access_token: sign({
            iss: issuer,
            sub: subject.sub,
            aud: audience,
            client_id: clientAtAs,
            resource: p.get('resource'),
            exp: Math.floor(Date.now() / 1000) + 300,
          }),
          issued_token_type: ID_JAG,
          token_type: 'N_A',
        });
      }
      return json(res, 400, { error: 'invalid_grant' });
    })().catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(e) });
    });
  });

  const servers: ProtectedServer[] = [];
  for (const spec of specs) {
    const srv = createServer();
    http.push(srv);
    const base = `http://127.0.0.1:${await listen(srv)}`;
    const mcpUrl = `${base}/mcp`;
    const clientId = spec.clientId ?? `mcp-host-${spec.name}`;
    const entry: ProtectedServer = { name: spec.name, mcpUrl, issuer: base, clientId, grants: [] };
    servers.push(entry);
    if (spec.trustedByIdp !== false) trusted.set(base, clientId);
    const accepts = spec.acceptsJwtBearer !== false;
    const codes = new Set<string>();
    srv.on('request', (req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', base);
        if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
          return json(res, 200, { resource: mcpUrl, authorization_servers: [base] });
        if (url.pathname === '/.well-known/oauth-authorization-server')
          return json(res, 200, {
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            response_types_supported: ['code'],
            code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
            grant_types_supported: ['authorization_code', 'refresh_token', ...(accepts ? [JWT_BEARER] : [])],
          });
        if (url.pathname === '/authorize') {
          // The ordinary sign-in: approved at once, for the fallback path.
          const code = randomBytes(8).toString('hex');
          codes.add(code);
          const back = new URL(url.searchParams.get('redirect_uri')!);
          back.searchParams.set('code', code);
          back.searchParams.set('state', url.searchParams.get('state') ?? '');
          back.searchParams.set('iss', base);
          res.writeHead(302, { location: back.href }).end();
          return;
        }
        if (url.pathname === '/token' && req.method === 'POST') {
          const p = await form(req);
          const grant = p.get('grant_type') ?? '';
          entry.grants.push(grant);
          let ok = false;
          if (grant === JWT_BEARER && accepts) {
            const jag = verify(p.get('assertion') ?? undefined);
            ok = !!jag && jag.iss === issuer && jag.aud === base && jag.client_id === clientId;
          } else if (grant === 'authorization_code') ok = codes.delete(p.get('code') ?? '');
          if (!ok) return json(res, 400, { error: 'invalid_grant' });
          return json(res, 200, {
            access_token: sign({ aud: mcpUrl, sub: 'alice', via: grant, exp: Math.floor(Date.now() / 1000) + 3600 }),
            token_type: 'Bearer',
            expires_in: 3600,
          });
        }
        if (url.pathname !== '/mcp') return json(res, 404, { error: 'not_found' });
        const header = req.headers.authorization ?? '';
        const claims = verify(header.startsWith('Bearer ') ? header.slice(7) : undefined);
        if (!claims || claims.aud !== mcpUrl) {
          res
            .writeHead(401, {
              'content-type': 'application/json',
              'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
            })
            .end(JSON.stringify({ error: 'invalid_token' }));
          return;
        }
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const server = new McpServer({ name: spec.name, version: '1.0.0' });
        server.registerTool('whoami', { description: 'Who the token is for and how it was obtained' }, async () => ({
          content: [{ type: 'text', text: `hello ${String(claims.sub)} via ${String(claims.via)}` }],
        }));
        await serveStatelessRequest(server, req, res);
      })().catch((e: unknown) => {
        if (!res.headersSent) json(res, 500, { error: String(e) });
      });
    });
  }

  async function follow(start: string): Promise<URL> {
    let url = new URL(start);
    const ours = [issuer, ...servers.map((s) => s.issuer)];
    for (let hop = 0; hop < 10; hop++) {
      if (!ours.some((o) => url.href.startsWith(`${o}/`))) return url;
      const res = await fetch(url, { redirect: 'manual' });
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (!location) throw new Error(`${url.href} answered ${res.status} without a redirect`);
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }

  return {
    issuer,
    servers,
    idpRequests,
    follow,
    async close() {
      await Promise.all(
        http.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
