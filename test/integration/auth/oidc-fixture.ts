/**
 * A real authorization server (oidc-provider 9) and a Streamable HTTP MCP server that only
 * answers requests carrying an access token that authorization server issued for it, both on
 * 127.0.0.1 with ports from the OS. Login and consent are auto-approved by a tiny interaction
 * handler; the "browser" is `follow()`, which walks the redirects with a cookie jar.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStatelessRequest } from '../../support/stateless-mcp.js';
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

export const RESOURCE_SCOPE = 'mcp:tools';

/** Pre-registered machine-to-machine clients (client_credentials grant). */
export const M2M_BASIC = { clientId: 'm2m-basic', clientSecret: 'm2m-basic-secret-0123456789' };
const m2mKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
export const M2M_JWT = {
  clientId: 'm2m-jwt',
  privateKeyPem: m2mKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  algorithm: 'ES256',
};

/** A public native client, as a company registers MCP Host at its IdP (enterprise sign-in, PKCE, refresh). */
export const IDE_CLIENT_ID = 'mcp-host-ide';

export interface OidcFixture {
  issuer: string;
  /** The MCP endpoint (`.../mcp`). */
  mcpUrl: string;
  /** The same server over the legacy HTTP+SSE transport (`.../sse`, messages to `.../messages`). */
  sseUrl: string;
  provider: Provider;
  /** Requests the MCP endpoint received, with whether they carried a valid token. */
  mcpRequests: { authorized: boolean; method: string }[];
  /** Follows an authorization URL like a browser, returning the redirect to the client (not fetched). */
  follow(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export async function startOidcFixture(): Promise<OidcFixture> {
  const asServer = createServer();
  const mcpServer = createServer();
  const asPort = await listen(asServer);
  const mcpPort = await listen(mcpServer);
  const issuer = `http://127.0.0.1:${asPort}`;
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  const prmUrl = `http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource/mcp`;
  const sseUrl = `http://127.0.0.1:${mcpPort}/sse`;
  const ssePrmUrl = `http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource/sse`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: IDE_CLIENT_ID,
        application_type: 'native',
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: ['http://127.0.0.1/callback'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      {
        client_id: M2M_BASIC.clientId,
        client_secret: M2M_BASIC.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: M2M_JWT.clientId,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'ES256',
        jwks: { keys: [{ ...m2mKeys.publicKey.export({ format: 'jwk' }), use: 'sig', alg: 'ES256' }] },
      },
    ],
    scopes: ['openid', 'offline_access', RESOURCE_SCOPE],
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => mcpUrl,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          if (indicator !== mcpUrl && indicator !== sseUrl) throw new Error(`unknown resource ${indicator}`);
          return { scope: RESOURCE_SCOPE, audience: indicator, accessTokenTTL: 3600, accessTokenFormat: 'opaque' };
        },
      },
    },
    // Tests refresh without asking for offline_access (an OIDC scope the MCP server does not list).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: { AccessToken: 3600, RefreshToken: 86400, Interaction: 600, Session: 600, Grant: 86400 },
  });
  const oidcHandler = provider.callback();

  const approve = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: 'test-user' } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const accountId = details.session!.accountId;
    const grant = details.grantId
      ? (await provider.Grant.find(details.grantId))!
      : new provider.Grant({ accountId, clientId: details.params.client_id as string });
    const d = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };

  asServer.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      approve(req, res).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
      return;
    }
    void oidcHandler(req, res);
  });

  const mcpRequests: OidcFixture['mcpRequests'] = [];
  const sseSessions = new Map<string, SSEServerTransport>();
  const newServer = (accountId: string | undefined) => {
    const server = new McpServer({ name: 'oauth-protected', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Returns the token subject' }, async () => ({
      content: [{ type: 'text', text: `hello ${accountId}` }],
    }));
    return server;
  };
  mcpServer.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', mcpUrl);
      for (const [path, resource] of [
        ['/mcp', mcpUrl],
        ['/sse', sseUrl],
      ] as const) {
        if (url.pathname === `/.well-known/oauth-protected-resource${path}`) {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ resource, authorization_servers: [issuer], scopes_supported: [RESOURCE_SCOPE] }));
          return;
        }
      }
      const resource =
        url.pathname === '/mcp' ? mcpUrl : url.pathname === '/sse' || url.pathname === '/messages' ? sseUrl : undefined;
      if (!resource) {
        res.writeHead(404).end();
        return;
      }
      const header = req.headers.authorization ?? '';
      const value = header.startsWith('Bearer ') ? header.slice(7) : undefined;
      // Machine-to-machine (client_credentials) tokens are a model of their own in oidc-provider.
      const token = value
        ? ((await provider.AccessToken.find(value)) ?? (await provider.ClientCredentials.find(value)))
        : undefined;
      const valid =
        !!token &&
        !token.isExpired &&
        token.aud === resource &&
        (token.scope ?? '').split(' ').includes(RESOURCE_SCOPE);
      mcpRequests.push({ authorized: valid, method: req.method ?? '' });
      if (!valid) {
        res
          .writeHead(401, {
            'content-type': 'application/json',
            'www-authenticate': `Bearer error="invalid_token", resource_metadata="${resource === mcpUrl ? prmUrl : ssePrmUrl}", scope="${RESOURCE_SCOPE}"`,
          })
          .end(JSON.stringify({ error: 'invalid_token' }));
        return;
      }
      if (url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        sseSessions.set(transport.sessionId, transport);
        res.on('close', () => sseSessions.delete(transport.sessionId));
        await newServer(token!.accountId ?? token!.clientId).connect(transport);
        return;
      }
      if (url.pathname === '/messages' && req.method === 'POST') {
        const transport = sseSessions.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) {
          res.writeHead(404).end();
          return;
        }
        await transport.handlePostMessage(req, res);
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      await serveStatelessRequest(newServer(token!.accountId ?? token!.clientId), req, res);
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });

  async function follow(authorizationUrl: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 20; hop++) {
      if (!url.href.startsWith(issuer)) return url; // left the authorization server: the redirect to the client
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        jar.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
      const location = res.headers.get('location');
      if (!location)
        throw new Error(
          `authorization server stopped at ${url.pathname} with HTTP ${res.status}: ${(await res.text()).slice(0, 500)}`,
        );
      await res.body?.cancel();
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }

  const closeServer = (s: Server) =>
    new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });

  return {
    issuer,
    mcpUrl,
    sseUrl,
    provider,
    mcpRequests,
    follow,
    async close() {
      await Promise.all([closeServer(asServer), closeServer(mcpServer)]);
    },
  };
}
