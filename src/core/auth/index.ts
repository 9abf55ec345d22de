/**
 * OAuth for remote servers, as one object a front end (editor, CLI, tests) creates over its
 * ports. `providerFor` is what `HostOptions.authProvider` wants; `authenticate` / `signOut` back
 * the Authenticate / Sign Out commands and `mcp-host auth` / `logout`.
 */
import type { EnterpriseIdp } from './enterprise/cross-app.js';
import type { OAuthClientProvider, FetchLike } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/types.js';
import type { BrowserOpener, Clock, KeyValueStore, Logger, SecretStore } from '../ports.js';
import { systemClock } from '../ports.js';
import {
  authenticate,
  authenticateClientCredentials,
  signOut,
  type AuthenticateOptions,
  type FlowDeps,
} from './flow.js';
import { serverAuthKey } from './keys.js';
import { NeedsAuthCache } from './needs-auth-cache.js';
import {
  ClientCredentialsProvider,
  credentialKind,
  mayBePublic,
  usesClientCredentials,
  type ClientCredentialKind,
} from './client-credentials.js';
import { HostOAuthProvider, isOAuthCapable } from './provider.js';
import type { RevocationOutcome } from './revoke.js';
import type { RedirectReceiver } from './ports.js';
import { AuthRecordStore } from './store.js';
import { asJwtBearer, autoCrossAppProvider, crossAppCandidate, crossAppVerdict, fallBack } from './enterprise/auto.js';
import { usesCrossAppAccess } from './enterprise/cross-app.js';
import { errorMessage } from '../errors.js';

export { AuthError, AuthRequiredError, isAuthRequired } from './errors.js';
export type { AuthErrorCode } from './errors.js';
export { issuerClientKey, serverAuthKey } from './keys.js';
export { NeedsAuthCache, NEEDS_AUTH_TTL_MS } from './needs-auth-cache.js';
export { HostOAuthProvider, isOAuthCapable } from './provider.js';
export { createLoopbackReceiver, REDIRECT_TIMEOUT_MS } from './loopback-receiver.js';
export { isOpenableUrl, openableUrl } from './safe-url.js';
export type { RedirectReceiver, RedirectSession } from './ports.js';
export type { AuthenticateOptions } from './flow.js';
export {
  ClientCredentialsProvider,
  usesClientCredentials,
  credentialKind,
  type ClientCredentialKind,
} from './client-credentials.js';
export { usesCrossAppAccess, type EnterpriseIdp } from './enterprise/cross-app.js';
export { revokeTokens, type RevocationOutcome } from './revoke.js';

export interface HostAuthDeps {
  secrets: SecretStore;
  /** Non-secret state: the needs-auth cache. */
  kv: KeyValueStore;
  logger: Logger;
  browser: BrowserOpener;
  receiver: RedirectReceiver;
  clock?: Clock;
  /** Client name shown on consent screens; default "MCP Host". */
  clientName?: string;
  clientUri?: string;
  /** HTTPS URL of a published client metadata document (SEP-991); without one, DCR is used. */
  clientMetadataUrl?: string;
  fetch?: FetchLike;
  /** The company IdP (enterprise-managed authorization, SEP-990), once the user signed in to it. */
  enterpriseIdp?: EnterpriseIdp;
}

export interface HostAuth {
  /** For `HostOptions.authProvider`: a background provider for http/sse servers, else undefined. */
  providerFor(def: ServerDefinition): HostOAuthProvider | ClientCredentialsProvider | undefined;
  /** The explicit sign-in; rejects with an AuthError (code + message for people). */
  authenticate(def: ServerDefinition, opts?: AuthenticateOptions): Promise<void>;
  /**
   * Revokes the tokens where the authorization server offers revocation (RFC 7009), then removes
   * tokens, client registration, verifier, discovery state and client secret or private key.
   */
  signOut(def: ServerDefinition): Promise<RevocationOutcome>;
  /** True when tokens are stored for the server (says nothing about whether they still work). */
  hasSession(def: ServerDefinition): Promise<boolean>;
  /** Stores (or with undefined, forgets) the secret for a configured `oauth.clientId`. */
  setClientSecret(def: ServerDefinition, secret: string | undefined): Promise<void>;
  hasClientSecret(def: ServerDefinition): Promise<boolean>;
  /** Stores (or forgets) the private key (PEM or JWK JSON) of a private_key_jwt client_credentials server. */
  setPrivateKey(def: ServerDefinition, pem: string | undefined): Promise<void>;
  /**
   * For a client_credentials server (SEP-1046) whose secret or key is not stored yet: which one to
   * ask the user for. Undefined for every other server, and once it is stored.
   */
  missingClientCredential(def: ServerDefinition): Promise<ClientCredentialKind | undefined>;
  /** The 15-minute quiet period after needs-auth (background connects do not probe inside it). */
  readonly needsAuthCache: NeedsAuthCache;
  /** Ends the quiet period for one server: call it when the user explicitly starts or restarts it. */
  clearNeedsAuth(def: ServerDefinition): Promise<void>;
  keyFor(def: ServerDefinition): string;
  /** True when the server's token comes through the company IdP (written `grantType` or detected, enterprise/auto.ts). */
  viaIdp(def: ServerDefinition): Promise<boolean>;
}

export function createHostAuth(deps: HostAuthDeps): HostAuth {
  const clock = deps.clock ?? systemClock;
  const store = new AuthRecordStore(deps.secrets);
  const needsAuth = new NeedsAuthCache(deps.kv, clock);
  const flowDeps: FlowDeps = {
    store,
    needsAuth,
    clock,
    logger: deps.logger,
    clientName: deps.clientName ?? 'MCP Host',
    clientUri: deps.clientUri,
    clientMetadataUrl: deps.clientMetadataUrl,
    fetch: deps.fetch,
    enterpriseIdp: deps.enterpriseIdp,
    browser: deps.browser,
    receiver: deps.receiver,
  };
  return {
    providerFor(def) {
      if (usesClientCredentials(def)) return new ClientCredentialsProvider(def, flowDeps);
      if (!isOAuthCapable(def)) return undefined;
      const ordinary = new HostOAuthProvider(def, flowDeps, { kind: 'background' });
      if (!crossAppCandidate(def, flowDeps)) return ordinary;
      // Typed as the ordinary provider: a Proxy over it, so authFetchFor still finds its fetch.
      return autoCrossAppProvider(
        def,
        flowDeps,
        ordinary,
        new ClientCredentialsProvider(asJwtBearer(def), flowDeps),
      ) as HostOAuthProvider;
    },
    async authenticate(def, opts) {
      if (usesClientCredentials(def)) return authenticateClientCredentials(def, flowDeps);
      // Asked explicitly: discover again, a server may have started (or stopped) taking the IdP's grant.
      if (crossAppCandidate(def, flowDeps) && (await crossAppVerdict(def, flowDeps, { rediscover: true })) === 'yes') {
        try {
          return await authenticateClientCredentials(asJwtBearer(def), flowDeps);
        } catch (e) {
          await fallBack(def, flowDeps, errorMessage(e));
        }
      }
      return authenticate(def, flowDeps, opts);
    },
    signOut: (def) => signOut(def, flowDeps, serverAuthKey(def)),
    async hasSession(def) {
      return (await store.read(serverAuthKey(def))).tokens !== undefined;
    },
    async setClientSecret(def, secret) {
      await store.update(serverAuthKey(def), (r) => ({ ...r, clientSecret: secret || undefined }));
    },
    async hasClientSecret(def) {
      return (await store.read(serverAuthKey(def))).clientSecret !== undefined;
    },
    async setPrivateKey(def, pem) {
      await store.update(serverAuthKey(def), (r) => ({ ...r, privateKey: pem?.trim() || undefined }));
    },
    async missingClientCredential(def) {
      if (!usesClientCredentials(def) || mayBePublic(def)) return undefined;
      const kind = credentialKind(def);
      const r = await store.read(serverAuthKey(def));
      return (kind === 'private key' ? r.privateKey : r.clientSecret) ? undefined : kind;
    },
    needsAuthCache: needsAuth,
    clearNeedsAuth: (def) => needsAuth.clear(serverAuthKey(def)),
    keyFor: serverAuthKey,
    async viaIdp(def) {
      return usesCrossAppAccess(def) || (await store.read(serverAuthKey(def))).crossApp === 'yes';
    },
  };
}

/**
 * The fetch to hand a transport together with `authProvider`, so token responses are
 * normalised and 403 `insufficient_scope` leads to a sign-in with the wider scope:
 * `new StreamableHTTPClientTransport(url, { authProvider: p, fetch: authFetchFor(p) })`.
 */
export function authFetchFor(provider: OAuthClientProvider | undefined): FetchLike | undefined {
  return provider instanceof HostOAuthProvider ? provider.fetch : undefined;
}

// Used by the editor and the CLI, which import only this module (scripts/lib/import-layers.mjs).
export { IdpHandle } from './enterprise/idp-handle.js';
export { IdpSession, type IdpSettings } from './enterprise/idp-session.js';
export { enterpriseIdpSettings, type IdpChoice } from './enterprise/settings.js';
