/**
 * Upstream credentials per person (`"gateway": {"upstreamAuth": {"<server>": {"mode": "per-user", …}}}`):
 * for such a server the team gateway never uses one person's token for another, nor its own shared
 * connection for calls. For each caller it exchanges the caller's own access token (the one the agent
 * sent the gateway, checked by tokens.ts) at the company IdP (RFC 8693) for an ID-JAG addressed to
 * the upstream's authorization server, and trades that (RFC 7523 jwt-bearer, enterprise/token-exchange.ts,
 * as the editor's cross-app access does) for an upstream access token, kept per (person, server)
 * in this process's memory only until it expires — never on disk, never in Redis, never logged.
 *
 * The subject token is the incoming *access token* (subject_token_type access_token, RFC 8693 §3):
 * the gateway holds no ID token of the people it serves. The ID-JAG draft's profile names an ID token
 * (or SAML assertion) as the subject; the IdP must accept an access token it issued to the gateway
 * instead (docs/team-gateway.md, "Upstream credentials").
 */
import { z } from 'zod';
import { AuthError } from '../../auth/errors.js';
import { JWT_BEARER_GRANT, requestIdJag } from '../../auth/enterprise/token-exchange.js';

export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** How the gateway signs a person in to one upstream server. */
export interface PerUserAuth {
  server: string;
  /** Where it was configured: `file` and `gateway.upstreamAuth.<server>` (for errors). */
  file: string;
  /** The IdP's token endpoint; default: the gateway's issuer's `token_endpoint`. */
  idpTokenEndpoint?: string;
  /** The gateway's client at the IdP, and its secret (read from the environment variable named). */
  clientId: string;
  clientSecret?: string;
  /** The upstream's authorization server (the ID-JAG's audience); default: its protected resource metadata's. */
  authorizationServer?: string;
  /** The upstream as a resource (RFC 8707); default: the server's URL. */
  resource?: string;
  /** The gateway's client at the upstream's authorization server (jwt-bearer grant); default `clientId`. */
  asClientId?: string;
  asClientSecret?: string;
  scope?: string;
}

const entrySchema = z
  .object({
    mode: z.enum(['per-user', 'shared']),
    idpTokenEndpoint: z.url({ protocol: /^https?$/ }).optional(),
    clientId: z.string().min(1).optional(),
    clientSecretEnv: z.string().min(1).optional(),
    authorizationServer: z.url({ protocol: /^https?$/ }).optional(),
    resource: z.url().optional(),
    asClientId: z.string().min(1).optional(),
    asClientSecretEnv: z.string().min(1).optional(),
    scope: z.string().min(1).optional(),
  })
  .strict();

/**
 * The `upstreamAuth` objects of the config files (later files win per server). Secrets are never in
 * the file: `clientSecretEnv` names the environment variable that holds one.
 */
export function parseUpstreamAuth(
  docs: { file: string; value: unknown }[],
  env: Readonly<Record<string, string | undefined>>,
): { perUser: Map<string, PerUserAuth>; problems: string[] } {
  const perUser = new Map<string, PerUserAuth>();
  const problems: string[] = [];
  for (const { file, value } of docs) {
    const all = (value as { upstreamAuth?: unknown } | undefined)?.upstreamAuth;
    if (all === undefined) continue;
    if (typeof all !== 'object' || all === null || Array.isArray(all)) {
      problems.push(`${file}: gateway.upstreamAuth: an object of server names`);
      continue;
    }
    for (const [server, raw] of Object.entries(all)) {
      const at = `${file}: gateway.upstreamAuth.${server}`;
      const parsed = entrySchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        problems.push(`${at}${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message}`);
        continue;
      }
      const e = parsed.data;
      if (e.mode === 'shared') {
        perUser.delete(server);
        continue;
      }
      if (!e.clientId) {
        problems.push(`${at}.clientId: the gateway's client at the identity provider is required for per-user`);
        continue;
      }
      const secret = (name: string | undefined, key: string): string | undefined => {
        if (name === undefined) return undefined;
        const v = env[name];
        if (!v) problems.push(`${at}.${key}: the environment variable ${name} is not set`);
        return v || undefined;
      };
      perUser.set(server, {
        server,
        file,
        clientId: e.clientId,
        ...opt('clientSecret', secret(e.clientSecretEnv, 'clientSecretEnv')),
        ...opt('idpTokenEndpoint', e.idpTokenEndpoint),
        ...opt('authorizationServer', e.authorizationServer),
        ...opt('resource', e.resource),
        ...opt('asClientId', e.asClientId),
        ...opt('asClientSecret', secret(e.asClientSecretEnv, 'asClientSecretEnv')),
        ...opt('scope', e.scope),
      });
    }
  }
  return { perUser, problems };
}

function opt<K extends string, V>(k: K, v: V | undefined): Partial<Record<K, V>> {
  return v === undefined ? {} : ({ [k]: v } as Record<K, V>);
}

/**
 * What refuses a per-user entry for a server that cannot carry a person's token: not configured, or
 * not over HTTP (a stdio server's process is one for everyone; it has no Authorization header).
 */
export function perUserRefusal(a: PerUserAuth, type: string | undefined): string | undefined {
  const at = `${a.file}: gateway.upstreamAuth.${a.server}`;
  if (type === undefined) return `${at}: no server "${a.server}" is configured`;
  if (type !== 'http')
    // The name unquoted: a quoted value after a key named like `…Auth…` is redacted from stderr.
    return `${at}: ${a.server} is a ${type} server; only an HTTP server can take each person's own token (remove the entry, or give the server a shared credential in its config)`;
  return undefined;
}

interface Cached {
  token: string;
  /** ms since epoch; renewed this long before. */
  expiresAt: number;
}

/** Renewed this long before the upstream says it expires: a call must not start on a token about to die. */
const EARLY_MS = 30_000;
/** Assumed when the authorization server gives no `expires_in`. */
const DEFAULT_TTL_MS = 300_000;

export interface ExchangeEvents {
  /** One exchange done for (server, person); for tests and metrics. */
  exchanged?: (server: string, sub: string) => void;
}

/** The upstream tokens of every person, for one server: obtained by exchange, kept in memory until expiry. */
export class UpstreamTokens {
  private readonly cache = new Map<string, Cached>();
  private readonly inflight = new Map<string, Promise<Cached>>();
  private endpoints?: Promise<{ idp: string; audience: string; asToken: string }>;

  constructor(
    private readonly a: PerUserAuth,
    /** The upstream's URL (its `config.url`). */
    private readonly url: string,
    /** The gateway's own issuer: where the IdP's token endpoint is found unless configured. */
    private readonly issuer: string,
    private readonly events: ExchangeEvents = {},
    private readonly fetchFn: Fetch = fetch,
  ) {}

  /** `sub`'s token for the upstream, exchanging `subjectToken` when none is held or it is about to expire. */
  async tokenFor(sub: string, subjectToken: string): Promise<string> {
    const c = this.cache.get(sub);
    if (c && c.expiresAt - EARLY_MS > Date.now()) return c.token;
    let p = this.inflight.get(sub);
    if (!p) {
      p = this.exchange(sub, subjectToken).finally(() => this.inflight.delete(sub));
      this.inflight.set(sub, p);
    }
    const got = await p;
    return got.token;
  }

  /** The upstream refused `token` (401): the next call exchanges again. */
  forget(sub: string, token: string): void {
    if (this.cache.get(sub)?.token === token) this.cache.delete(sub);
  }

  /** Drops tokens that expired: what stays in memory is only what could still be used. */
  sweep(now = Date.now()): void {
    for (const [sub, c] of this.cache) if (c.expiresAt <= now) this.cache.delete(sub);
  }

  private async exchange(sub: string, subjectToken: string): Promise<Cached> {
    const { idp, audience, asToken } = await (this.endpoints ??= this.discover().catch((e: unknown) => {
      this.endpoints = undefined;
      throw e;
    }));
    const resource = this.a.resource ?? this.url;
    const idJag = await requestIdJag({
      tokenEndpoint: idp,
      idToken: subjectToken,
      subjectTokenType: ACCESS_TOKEN_TYPE,
      audience,
      resource,
      clientId: this.a.clientId,
      ...opt('clientSecret', this.a.clientSecret),
      ...opt('scope', this.a.scope),
      fetch: this.fetchFn,
      timeoutMs: 10_000,
    });
    const got = await this.jwtBearer(asToken, idJag);
    this.cache.set(sub, got);
    this.events.exchanged?.(this.a.server, sub);
    return got;
  }

  private async jwtBearer(tokenEndpoint: string, idJag: string): Promise<Cached> {
    const body = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: idJag });
    if (this.a.scope) body.set('scope', this.a.scope);
    const clientId = this.a.asClientId ?? this.a.clientId;
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (this.a.asClientSecret)
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(this.a.asClientSecret)}`).toString('base64')}`;
    else body.set('client_id', clientId);
    const res = await this.fetchFn(tokenEndpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    }).catch((e: unknown) => {
      throw new AuthError(
        'token',
        `${this.a.server}'s authorization server cannot be reached: ${(e as Error).message}`,
      );
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok || typeof json.access_token !== 'string') {
      const why = typeof json.error === 'string' ? json.error : `HTTP ${res.status}`;
      throw new AuthError('token', `${this.a.server}'s authorization server refused the jwt-bearer grant (${why})`);
    }
    const ttl = typeof json.expires_in === 'number' ? json.expires_in * 1000 : DEFAULT_TTL_MS;
    return { token: json.access_token, expiresAt: Date.now() + ttl };
  }

  /** The IdP's token endpoint, the upstream's authorization server and its token endpoint (RFC 9728, RFC 8414). */
  private async discover(): Promise<{ idp: string; audience: string; asToken: string }> {
    const idp = this.a.idpTokenEndpoint ?? (await tokenEndpointOf(this.issuer, this.fetchFn));
    let audience = this.a.authorizationServer;
    if (!audience) {
      const u = new URL(this.url);
      const prm = await getJson(
        this.fetchFn,
        `${u.origin}/.well-known/oauth-protected-resource${u.pathname === '/' ? '' : u.pathname}`,
      );
      const servers = (prm as { authorization_servers?: unknown } | undefined)?.authorization_servers;
      if (!Array.isArray(servers) || typeof servers[0] !== 'string')
        throw new AuthError(
          'token',
          `${this.a.server} names no authorization server (set gateway.upstreamAuth.${this.a.server}.authorizationServer)`,
        );
      audience = servers[0];
    }
    return { idp, audience, asToken: await tokenEndpointOf(audience, this.fetchFn) };
  }
}

async function tokenEndpointOf(issuer: string, fetchFn: Fetch): Promise<string> {
  const u = new URL(issuer);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  for (const url of [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
  ]) {
    const meta = await getJson(fetchFn, url);
    const t = (meta as { token_endpoint?: unknown } | undefined)?.token_endpoint;
    if (typeof t === 'string') return t;
  }
  throw new AuthError('token', `${issuer} publishes no token_endpoint in its metadata`);
}

async function getJson(fetchFn: Fetch, url: string): Promise<unknown> {
  try {
    const res = await fetchFn(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5000) });
    return res.ok ? await res.json() : undefined;
  } catch {
    return undefined;
  }
}
