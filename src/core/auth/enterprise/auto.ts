/**
 * Cross-app access without `"grantType"`: while a company IdP is configured, a remote server with
 * a pre-registered `oauth.clientId` and no grant type gets its token through the IdP when its
 * authorization server says it takes jwt-bearer grants (`grant_types_supported`), and the ordinary
 * sign-in otherwise, or when the IdP refuses the exchange (fallback). The verdict is kept in the
 * server's auth record until Sign Out, so each connect does not discover again.
 *
 * Why only with a configured clientId: the ID-JAG names the client the authorization server
 * knows, so a dynamically registered client has nothing the IdP could vouch for. Why it is safe to
 * try: the ID token only ever goes to the configured IdP, which issues an ID-JAG only for the
 * audiences its administrator trusts; a server merely claiming support gets a refusal.
 */
import { discoverOAuthServerInfo } from '@modelcontextprotocol/client';
import type {
  AuthorizationServerMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import type { RemoteServerConfig, ServerDefinition } from '../../config/types.js';
import { errorMessage } from '../../errors.js';
import { AuthRequiredError } from '../errors.js';
import { serverAuthKey } from '../keys.js';
import type { ProviderContext } from '../provider.js';
import { JWT_BEARER_GRANT } from './token-exchange.js';

type RemoteDefinition = ServerDefinition & { config: RemoteServerConfig };

/** A server the IdP may serve without `grantType`: remote, no grant type, a pre-registered client. */
export function crossAppCandidate(def: ServerDefinition, ctx: Pick<ProviderContext, 'enterpriseIdp'>): boolean {
  return (
    ctx.enterpriseIdp !== undefined &&
    (def.config.type === 'http' || def.config.type === 'sse') &&
    def.config.oauth?.grantType === undefined &&
    !!def.config.oauth?.clientId
  );
}

/** The same server as if `"grantType": "jwt-bearer"` were written (same auth record key). */
export function asJwtBearer(def: ServerDefinition): RemoteDefinition {
  const config = def.config as RemoteServerConfig;
  return { ...def, config: { ...config, oauth: { ...config.oauth, grantType: 'jwt-bearer' } } };
}

export function acceptsJwtBearer(metadata: AuthorizationServerMetadata | undefined): boolean {
  return Array.isArray(metadata?.grant_types_supported) && metadata.grant_types_supported.includes(JWT_BEARER_GRANT);
}

/**
 * The verdict for one candidate: the stored one, else (signed in to the IdP) discovery of its
 * authorization server. Undefined: not decided (nobody signed in to the IdP), use the ordinary flow.
 */
export async function crossAppVerdict(
  def: ServerDefinition,
  ctx: ProviderContext,
  opts: { rediscover?: boolean } = {},
): Promise<'yes' | 'no' | undefined> {
  const key = serverAuthKey(def);
  const record = await ctx.store.read(key);
  if (record.crossApp && !opts.rediscover) return record.crossApp;
  if (!(await ctx.enterpriseIdp?.idToken())) return undefined;
  let discovery: OAuthDiscoveryState;
  try {
    const info = await discoverOAuthServerInfo((def.config as RemoteServerConfig).url, {
      fetchFn: ctx.fetch ?? ((u, i) => fetch(u, i)),
    });
    discovery = {
      authorizationServerUrl: String(info.authorizationServerUrl),
      authorizationServerMetadata: info.authorizationServerMetadata,
      resourceMetadata: info.resourceMetadata,
    };
  } catch (e) {
    ctx.logger.debug(`${def.name}: authorization server discovery for cross-app access failed: ${errorMessage(e)}`);
    return undefined;
  }
  const verdict = acceptsJwtBearer(discovery.authorizationServerMetadata) ? 'yes' : 'no';
  await ctx.store.update(key, (r) => ({ ...r, crossApp: verdict, discovery }));
  ctx.logger.info(
    verdict === 'yes'
      ? `${def.name}: its authorization server takes jwt-bearer grants; tokens come through the company identity provider`
      : `${def.name}: its authorization server does not list jwt-bearer grants; the ordinary sign-in applies`,
  );
  return verdict;
}

/** After a refused exchange: the ordinary sign-in from now on (until Sign Out forgets the verdict). */
export async function fallBack(def: ServerDefinition, ctx: ProviderContext, why: string): Promise<void> {
  ctx.logger.warn(`${def.name}: cross-app access failed (${why}); falling back to the ordinary sign-in`);
  await ctx.store.update(serverAuthKey(def), (r) => ({
    ...r,
    crossApp: 'no',
    tokens: undefined,
    expiresAt: undefined,
  }));
}

/**
 * The background provider of a candidate: the ordinary one until the verdict is "yes", then the
 * jwt-bearer one. The SDK calls `tokens()` (transport) or `discoveryState()` (auth()) before
 * anything that differs between the two, so both settle the verdict first.
 */
export function autoCrossAppProvider(
  def: ServerDefinition,
  ctx: ProviderContext,
  ordinary: OAuthClientProvider,
  crossApp: OAuthClientProvider,
): OAuthClientProvider {
  let verdict: 'yes' | 'no' | undefined;
  const current = (): OAuthClientProvider => (verdict === 'yes' ? crossApp : ordinary);
  const overrides: Partial<Record<keyof OAuthClientProvider, unknown>> = {
    async tokens(): Promise<OAuthTokens | undefined> {
      verdict = (await ctx.store.read(serverAuthKey(def))).crossApp;
      return current().tokens();
    },
    async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
      const record = await ctx.store.read(serverAuthKey(def));
      // Signed in the ordinary way before the IdP was set up: that sign-in stays.
      verdict = record.crossApp ?? (record.tokens ? undefined : await crossAppVerdict(def, ctx));
      return current().discoveryState?.();
    },
    async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
      if (verdict !== 'yes') return ordinary.prepareTokenRequest?.(scope);
      try {
        return await crossApp.prepareTokenRequest!(scope);
      } catch (e) {
        if (e instanceof AuthRequiredError) throw e;
        await fallBack(def, ctx, errorMessage(e));
        await ctx.needsAuth.mark(serverAuthKey(def));
        throw new AuthRequiredError(def.name, 'authorization-needed');
      }
    },
  };
  return new Proxy(ordinary, {
    get(_target, prop, _receiver) {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop as keyof OAuthClientProvider];
      const d = current();
      const v = Reflect.get(d, prop, d) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(d) : v;
    },
    has: (_t, prop) => prop in current() || (typeof prop === 'string' && prop in overrides),
  });
}
