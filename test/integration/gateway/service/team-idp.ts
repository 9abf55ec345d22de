/**
 * A company's authorization server for the team gateway's tests: the real oidc-provider issuing
 * JWT access tokens (RFC 9068) for whatever resource indicator is asked for, signed by a key the
 * test holds too (so it can make an expired token the issuer's key really signed, and a forged one
 * it did not). People are machine clients (client_credentials: `sub` is the client id) with groups
 * in a `groups` claim, and one public client for the browser sign-in of an SDK agent (`follow`).
 * With `devInteractions`, the sign-in is oidc-provider's own login and consent pages, for a person
 * at a real browser (the e2e test types a login there); the groups claim is then the login's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import Provider from 'oidc-provider';

export const SCOPE = 'mcp';
/** Who is in which group; the secret of each is `${id}-secret-0123456789`. */
export const PEOPLE: Record<string, string[]> = { alice: ['engineering'], bob: ['ops'], carol: [] };
export const AGENT_APP = 'agent-app';
/** Who signs in through the browser flow (`follow`). */
export const BROWSER_USER = 'dana';
export const BROWSER_GROUPS = ['engineering'];

export interface TeamIdp {
  issuer: string;
  /** A JWT access token for `person` (client_credentials) for `resource`. */
  tokenFor(person: string, resource: string, scope?: string): Promise<string>;
  /** A JWT signed with the issuer's own key: whatever claims the test wants (expired, no scope…). */
  signAsIssuer(claims: Record<string, unknown>): string;
  /** The same, signed by a key the issuer never published, under the issuer's key id. */
  forge(claims: Record<string, unknown>): string;
  follow(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
function jwt(key: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const body = `${b64({ alg: 'RS256', typ: 'at+jwt', kid })}.${b64(claims)}`;
  return `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`;
}

export async function startTeamIdp(opts: { devInteractions?: boolean } = {}): Promise<TeamIdp> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kid = 'team-key-1';
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const secret = (id: string): string => `${id}-secret-0123456789`;
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [
      ...Object.keys(PEOPLE).map((id) => ({
        client_id: id,
        client_secret: secret(id),
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
    ],
    scopes: ['openid', 'offline_access', SCOPE],
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    ...(opts.devInteractions
      ? {}
      : { interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` } }),
    extraTokenClaims: async (_ctx, token) => {
      const who = token.accountId ?? token.clientId ?? '';
      return { groups: who === BROWSER_USER ? BROWSER_GROUPS : (PEOPLE[who] ?? []) };
    },
    features: {
      devInteractions: { enabled: opts.devInteractions === true },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => undefined as unknown as string,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => ({
          scope: SCOPE,
          audience: indicator,
          accessTokenTTL: 600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    ttl: { AccessToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  });
  const handler = provider.callback();
  const approve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: BROWSER_USER } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new provider.Grant({
      accountId: details.session!.accountId,
      clientId: details.params.client_id as string,
    });
    const d = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  };
  server.on('request', (req, res) => {
    if (!opts.devInteractions && req.url?.startsWith('/interaction/')) {
      approve(req, res).catch((err: unknown) => res.writeHead(500).end(String(err)));
      return;
    }
    void handler(req, res);
  });

  return {
    issuer,
    async tokenFor(person, resource, scope = SCOPE) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${person}:${secret(person)}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token for ${person}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    signAsIssuer: (claims) => jwt(createPrivateKey({ key: jwk, format: 'jwk' }), kid, { iss: issuer, ...claims }),
    forge: (claims) => jwt(forger, kid, { iss: issuer, ...claims }),
    async follow(authorizationUrl) {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 20; hop++) {
        if (!url.href.startsWith(issuer)) return url;
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
        await res.body?.cancel();
        if (!location) throw new Error(`the authorization server stopped at ${url.pathname} (HTTP ${res.status})`);
        url = new URL(location, url);
      }
      throw new Error('too many redirects');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
