/**
 * For the team gateway's per-user upstream credentials: the company IdP's token-exchange side and
 * an upstream MCP server behind its own authorization server that reports who called it.
 *
 * The exchange endpoint (RFC 8693) takes a subject access token of the team IdP (oidc-provider,
 * team-idp.ts, which has no token exchange of its own), checks it with `jose` against that issuer's
 * published keys and the gateway's audience, and issues an ID-JAG for the upstream's authorization
 * server — except for the people in `refused`. The upstream's authorization server takes that ID-JAG
 * (RFC 7523 jwt-bearer) for an access token of its own; its `/mcp` takes those, or the operator's
 * static service token, and records every request's token and who it was for. Its tool, resource,
 * prompt and completion each answer with whom the request was for.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completable, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
export const GATEWAY_CLIENT = 'team-gateway';

export interface UpstreamRequest {
  /** The bearer token it carried. */
  token: string;
  /** Whom that token is for (`service` for the static one); undefined when refused. */
  sub: string | undefined;
  method: string | undefined;
  /** The W3C trace context in the request's `params._meta`, if any. */
  traceparent?: string;
}

export interface PerUserUpstream {
  /** The IdP's token-exchange endpoint. */
  exchangeUrl: string;
  mcpUrl: string;
  /** The upstream's authorization server. */
  issuer: string;
  /** A token the operator configures for the shared connection (`headers`). */
  serviceToken: string;
  /** People the IdP refuses to exchange for. */
  refused: Set<string>;
  /** Exchanges the IdP granted, by person. */
  exchanges: string[];
  /** jwt-bearer grants the upstream's AS granted, by person. */
  grants: string[];
  /** Every MCP request of the upstream. */
  seen: UpstreamRequest[];
  /** Lifetime of the upstream's tokens, seconds (read at each grant). */
  ttlS: number;
  /** The upstream refuses every token of `sub` issued so far, as once they expired. */
  expire(sub: string): void;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startPerUserUpstream(team: {
  issuer: string;
  gatewayResource: string;
}): Promise<PerUserUpstream> {
  const key = randomBytes(32);
  const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  const sign = (claims: Record<string, unknown>): string => {
    const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, jti: randomBytes(6).toString('hex') })}`;
    return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
  };
  const verify = (jwt: string | undefined): Record<string, unknown> | undefined => {
    const [h, p, s] = (jwt ?? '').split('.');
    if (!h || !p || !s || createHmac('sha256', key).update(`${h}.${p}`).digest('base64url') !== s) return undefined;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    return typeof claims.exp === 'number' && claims.exp * 1000 > Date.now() ? claims : undefined;
  };
  const { createRemoteJWKSet, jwtVerify } = await import('jose');
  const teamKeys = createRemoteJWKSet(new URL(`${team.issuer}/jwks`));
  const expiredBefore = new Map<string, number>();

  const idp = createServer();
  const upstream = createServer();
  const idpBase = await listen(idp);
  const base = await listen(upstream);
  const mcpUrl = `${base}/mcp`;
  const fx: PerUserUpstream = {
    exchangeUrl: `${idpBase}/token`,
    mcpUrl,
    issuer: base,
    serviceToken: `service-${randomBytes(12).toString('hex')}`,
    refused: new Set(),
    exchanges: [],
    grants: [],
    seen: [],
    ttlS: 3600,
    expire: (sub) => expiredBefore.set(sub, Date.now()),
    close: async () => {
      for (const s of [idp, upstream]) s.closeAllConnections();
      await Promise.all([idp, upstream].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };

  idp.on('request', (req, res) => {
    void (async () => {
      const p = await form(req);
      if (p.get('grant_type') !== TOKEN_EXCHANGE || p.get('subject_token_type') !== ACCESS_TOKEN)
        return json(res, 400, { error: 'unsupported_grant_type' });
      const subject = await jwtVerify(p.get('subject_token') ?? '', teamKeys, {
        issuer: team.issuer,
        audience: team.gatewayResource,
      }).catch(() => undefined);
      if (!subject) return json(res, 400, { error: 'invalid_grant', error_description: 'subject token not valid' });
      const sub = subject.payload.sub!;
      if (fx.refused.has(sub))
        return json(res, 400, { error: 'access_denied', error_description: `${sub} may not use ${p.get('audience')}` });
      if (p.get('audience') !== base || p.get('client_id') !== GATEWAY_CLIENT)
        return json(res, 400, { error: 'invalid_target' });
      fx.exchanges.push(sub);
      const exp = Math.floor(Date.now() / 1000) + 300;
      json(res, 200, {
        access_token: sign({
          iss: idpBase,
          sub,
          aud: base,
          client_id: GATEWAY_CLIENT,
          resource: p.get('resource'),
          exp,
        }),
        issued_token_type: ID_JAG,
        token_type: 'N_A',
      });
    })().catch((e: unknown) => !res.headersSent && json(res, 500, { error: String(e) }));
  });

  upstream.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
        return json(res, 200, { resource: mcpUrl, authorization_servers: [base] });
      if (url.pathname === '/.well-known/oauth-authorization-server')
        return json(res, 200, { issuer: base, token_endpoint: `${base}/token`, grant_types_supported: [JWT_BEARER] });
      if (url.pathname === '/token' && req.method === 'POST') {
        const p = await form(req);
        const jag = p.get('grant_type') === JWT_BEARER ? verify(p.get('assertion') ?? undefined) : undefined;
        if (!jag || jag.aud !== base || jag.client_id !== GATEWAY_CLIENT)
          return json(res, 400, { error: 'invalid_grant' });
        fx.grants.push(String(jag.sub));
        const token = sign({
          aud: mcpUrl,
          sub: jag.sub,
          iat: Date.now(),
          exp: Math.floor(Date.now() / 1000) + fx.ttlS,
        });
        return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: fx.ttlS });
      }
      if (url.pathname !== '/mcp') return json(res, 404, { error: 'not_found' });
      await mcp(req, res);
    })().catch((e: unknown) => !res.headersSent && json(res, 500, { error: String(e) }));
  });

  async function mcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const claims = verify(token);
    const fresh =
      claims && claims.aud === mcpUrl && (claims.iat as number) > (expiredBefore.get(String(claims.sub)) ?? -1);
    const sub = token === fx.serviceToken ? 'service' : fresh ? String(claims.sub) : undefined;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const msg = raw ? (JSON.parse(raw) as { method?: string; params?: { _meta?: { traceparent?: unknown } } }) : {};
    const traceparent = msg.params?._meta?.traceparent;
    fx.seen.push({ token, sub, method: msg.method, ...(typeof traceparent === 'string' ? { traceparent } : {}) });
    if (!sub) {
      res
        .writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const server = new McpServer({ name: 'personal', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Who the token is for' }, async () => ({
      content: [{ type: 'text', text: `hello ${sub}` }],
    }));
    // Answers only when its request goes away (the caller gave up): what a deadline must end.
    server.registerTool('wait', { description: 'Never answers' }, async () => {
      await new Promise((resolve) => res.once('close', resolve));
      return { content: [{ type: 'text', text: 'gone' }] };
    });
    // A resource, a prompt and a completion that each say whom the request was for.
    server.registerResource('me', 'personal://me', { mimeType: 'text/plain' }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `the page of ${sub}` }],
    }));
    server.registerPrompt(
      'greet',
      { argsSchema: z.object({ name: completable(z.string(), () => [sub]) }) },
      ({ name }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `${sub} greets ${name}` } }],
      }),
    );
    // No session, a JSON response (as stateless-mcp.ts), with the body this handler already read.
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, raw ? (JSON.parse(raw) as unknown) : undefined);
  }

  return fx;
}
