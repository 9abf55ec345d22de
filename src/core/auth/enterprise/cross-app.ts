/**
 * Enterprise-managed authorization for one server (`"oauth": {"grantType": "jwt-bearer"}`): the
 * user's ID token from the company IdP is exchanged for an ID-JAG addressed to this server's
 * authorization server, which the SDK's `auth()` then sends as a jwt-bearer grant, with the
 * client's own secret (client_secret_basic, as for client_credentials). No browser, no prompt.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { ServerDefinition, RemoteServerConfig } from '../../config/types.js';
import { AuthRequiredError } from '../errors.js';
import { jwtBearerParams, requestIdJag } from './token-exchange.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The company identity provider as the host knows it after the user signed in to it. */
export interface EnterpriseIdp {
  /** Its token endpoint (RFC 8693 token exchange), from its OpenID metadata. */
  tokenEndpoint(): Promise<string>;
  /** This app's client at the IdP. */
  clientId: string;
  clientSecret?: string;
  /** The user's current ID token; undefined when nobody is signed in. */
  idToken(): Promise<string | undefined>;
}

export function usesCrossAppAccess(def: ServerDefinition): boolean {
  return (def.config.type === 'http' || def.config.type === 'sse') && def.config.oauth?.grantType === 'jwt-bearer';
}

/**
 * The token request body for the authorization server: the exchange at the IdP happens here, at
 * the moment `auth()` asks, so the ID-JAG (short-lived by design) is never stored.
 */
export async function crossAppTokenRequest(
  def: ServerDefinition & { config: RemoteServerConfig },
  discovery: OAuthDiscoveryState | undefined,
  idp: EnterpriseIdp | undefined,
  scope: string | undefined,
  fetchFn?: Fetch,
): Promise<URLSearchParams> {
  const idToken = await idp?.idToken();
  if (!idp || !idToken) throw new AuthRequiredError(def.name, 'authorization-needed');
  const audience = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
  if (!audience) throw new AuthRequiredError(def.name, 'authorization-needed');
  const resource = discovery?.resourceMetadata?.resource ?? def.config.url;
  const idJag = await requestIdJag({
    tokenEndpoint: await idp.tokenEndpoint(),
    idToken,
    audience,
    resource,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    scope,
    fetch: fetchFn,
  });
  return jwtBearerParams(idJag, scope);
}
