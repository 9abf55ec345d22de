// The subset of oidc-provider 9 the OAuth tests use (the package ships no types and
// @types/oidc-provider is not installed; a test-only declaration keeps devDependencies small).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface TokenModel {
    accountId?: string;
    clientId?: string;
    aud?: string | string[];
    scope?: string;
    readonly isExpired: boolean;
    destroy(): Promise<void>;
  }
  interface GrantModel {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }
  interface ClientModel {
    grantTypeAllowed(grant: string): boolean;
    metadata(): Record<string, unknown>;
  }
  interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId: string };
    grantId?: string;
  }
  type Ctx = unknown;
  interface Configuration {
    clients?: Record<string, unknown>[];
    scopes?: string[];
    findAccount?: (
      ctx: Ctx,
      id: string,
    ) => Promise<{ accountId: string; claims: () => Promise<Record<string, unknown>> }>;
    interactions?: { url: (ctx: Ctx, interaction: { uid: string }) => string };
    features?: Record<string, unknown>;
    issueRefreshToken?: (ctx: Ctx, client: ClientModel, code: unknown) => Promise<boolean>;
    rotateRefreshToken?: boolean;
    ttl?: Record<string, number>;
    /** The signing keys (private JWKs). */
    jwks?: { keys: Record<string, unknown>[] };
    /** Claims added to every access token (JWT format: into its payload). */
    extraTokenClaims?: (ctx: Ctx, token: TokenModel) => Promise<Record<string, unknown> | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      opts?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    AccessToken: { find(value: string): Promise<TokenModel | undefined> };
    RefreshToken: { find(value: string): Promise<TokenModel | undefined> };
    ClientCredentials: { find(value: string): Promise<TokenModel | undefined> };
    Client: { find(id: string): Promise<ClientModel | undefined> };
    Grant: {
      new (init: { accountId: string; clientId: string }): GrantModel;
      find(id: string): Promise<GrantModel | undefined>;
    };
  }
}
