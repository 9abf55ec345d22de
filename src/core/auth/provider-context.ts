/**
 * What an OAuth provider (provider.ts) is built from: its context and mode, which servers can
 * use OAuth, and the configured authorization server metadata (`oauth.authServerMetadataUrl`),
 * checked and loaded.
 */
import type { AuthorizationServerMetadata, FetchLike } from '@modelcontextprotocol/server';
import { OAuthMetadataSchema, OpenIdProviderDiscoveryMetadataSchema } from '@modelcontextprotocol/core';
import type { EnterpriseIdp } from './enterprise/cross-app.js';
import type { RemoteServerConfig, ServerDefinition } from '../config/types.js';
import type { Clock, Logger } from '../ports.js';
import { AuthError } from './errors.js';
import type { NeedsAuthCache } from './needs-auth-cache.js';
import type { AuthRecordStore } from './store.js';
import { errorMessage } from '../errors.js';

export interface ProviderContext {
  store: AuthRecordStore;
  needsAuth: NeedsAuthCache;
  clock: Clock;
  logger: Logger;
  /** Shown on the consent screen and sent in dynamic registration. */
  clientName: string;
  clientUri?: string;
  /** An HTTPS URL where this client's metadata document is published (SEP-991), if there is one. */
  clientMetadataUrl?: string;
  /** Network access; defaults to the global fetch. */
  fetch?: FetchLike;
  /** The company IdP the user signed in to, for `"grantType": "jwt-bearer"` servers (auth/enterprise). */
  enterpriseIdp?: EnterpriseIdp;
}

export type ProviderMode =
  | { kind: 'background' }
  | {
      kind: 'interactive';
      redirectUrl: string;
      /**
       * Ignore stored tokens and discovery: the user asked to sign in, so go to the browser
       * (refreshing cannot widen scopes or switch accounts) and re-discover (the server may have moved).
       */
      freshSignIn?: boolean;
      /** Called with the authorization URL (already carrying our `state`); opens the browser. */
      openAuthorizationUrl(url: URL): Promise<void>;
    };

export type RemoteDefinition = ServerDefinition & { config: RemoteServerConfig };

export function isOAuthCapable(def: ServerDefinition): def is RemoteDefinition {
  // The SDK's WebSocket transport cannot send an Authorization header, so OAuth is HTTP-only.
  return def.config.type === 'http' || def.config.type === 'sse';
}

/** Rejects a configured metadata URL that is not HTTPS: it decides where the user's tokens go. */
export function checkMetadataUrl(def: RemoteDefinition): URL | undefined {
  const raw = def.config.oauth?.authServerMetadataUrl;
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AuthError('config', `${def.name}: oauth.authServerMetadataUrl is not a valid URL.`);
  }
  if (url.protocol !== 'https:') {
    throw new AuthError(
      'config',
      `${def.name}: oauth.authServerMetadataUrl must use https:// (got ${url.protocol}//). Fix it in the server's configuration.`,
    );
  }
  return url;
}

/** The metadata document at a configured `oauth.authServerMetadataUrl` (OpenID or OAuth). */
export async function fetchConfiguredMetadata(
  fetchFn: FetchLike,
  name: string,
  url: URL,
): Promise<AuthorizationServerMetadata> {
  let res: Response;
  try {
    res = await fetchFn(url, { headers: { Accept: 'application/json' } });
  } catch (err) {
    throw new AuthError('discovery', `${name}: could not load ${url.href}: ${errorMessage(err)}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new AuthError(
      'discovery',
      `${name}: ${url.href} answered HTTP ${res.status}; check oauth.authServerMetadataUrl.`,
    );
  }
  const json: unknown = await res.json().catch(() => undefined);
  const oidc = OpenIdProviderDiscoveryMetadataSchema.safeParse(json);
  if (oidc.success) return oidc.data;
  const oauth = OAuthMetadataSchema.safeParse(json);
  if (oauth.success) return oauth.data;
  throw new AuthError('discovery', `${name}: ${url.href} is not OAuth authorization server metadata.`);
}
