/**
 * MCP 2025-03-26 discovery, for servers that publish no protected-resource metadata (RFC 9728):
 * the authorization server is the MCP server's origin and its metadata lives at
 * `<origin>/.well-known/oauth-authorization-server`. That revision names the origin as the place to
 * look, not as the issuer, so such a document may name another issuer (e.g. `<origin>/oauth`); the
 * SDK's `auth()` holds every document to RFC 8414 §3.3 and would refuse it. Only this case skips
 * the issuer echo check: with protected-resource metadata (or a challenge naming it) nothing is
 * done here and the SDK validates as usual. The RFC 9207 `iss` check of the authorization response
 * still runs, against the issuer the document names.
 */
import { discoverOAuthProtectedResourceMetadata, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { OAuthMetadataSchema } from '@modelcontextprotocol/core';
import type { FetchLike } from '@modelcontextprotocol/server';

/**
 * The discovery state to hand `auth()` (through the provider's `saveDiscoveryState`) when the
 * server is on the 2025-03-26 path and its metadata names an issuer other than its origin; undefined
 * whenever the SDK's own (validating) discovery applies.
 */
export async function legacyDiscoveryState(
  serverUrl: string,
  resourceMetadataUrl: string | undefined,
  fetchFn: FetchLike,
): Promise<OAuthDiscoveryState | undefined> {
  // A challenge naming resource metadata is RFC 9728 discovery, even if that document fails to load.
  if (resourceMetadataUrl) return undefined;
  try {
    await discoverOAuthProtectedResourceMetadata(serverUrl, {}, fetchFn);
    return undefined;
  } catch {
    // No protected-resource metadata: the SDK, too, falls back to the origin here.
  }
  const origin = new URL('/', serverUrl).href;
  let json: unknown;
  try {
    const res = await fetchFn(new URL('/.well-known/oauth-authorization-server', origin), {
      headers: { Accept: 'application/json', 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION },
    });
    if (!res.ok) {
      await res.body?.cancel();
      return undefined;
    }
    json = await res.json();
  } catch {
    return undefined;
  }
  const parsed = OAuthMetadataSchema.safeParse(json);
  // A document the SDK accepts (issuer = origin) or cannot parse is left to the SDK and its errors,
  // and so is one naming an issuer on another origin: this revision's authorization server is this origin.
  if (!parsed.success || parsed.data.issuer === origin || parsed.data.issuer === origin.slice(0, -1)) return undefined;
  if (!URL.canParse(parsed.data.issuer) || new URL(parsed.data.issuer).origin !== new URL(origin).origin)
    return undefined;
  return { authorizationServerUrl: origin, authorizationServerMetadata: parsed.data };
}
