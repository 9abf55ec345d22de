/**
 * One SecretStore entry per server holding everything OAuth needs between runs: tokens (with
 * the issuer `auth()` stamped on them), when they expire, the client registration, the PKCE
 * verifier of a flow in progress, the discovery result and a user-entered client secret.
 */
import type { OAuthDiscoveryState, OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import type { SecretStore } from '../ports.js';

export interface AuthRecord {
  /** The MCP server URL the record was made for (a check, not a lookup key). */
  serverUrl?: string;
  tokens?: OAuthTokens;
  /** Absolute expiry of `tokens.access_token` in Clock ms, from `expires_in` at save time. */
  expiresAt?: number;
  client?: OAuthClientInformationMixed;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
  /** Secret of a configured (pre-registered) `clientId`, entered by the user. */
  clientSecret?: string;
  /** PEM (PKCS#8) or JWK JSON of a client_credentials client using private_key_jwt. */
  privateKey?: string;
  /** Authorization server a client_credentials client was first accepted by (when no `oauth.issuer` pins one). */
  boundIssuer?: string;
  /** Scope a server asked for (403 insufficient_scope / authorization URL) that the next sign-in must request. */
  pendingScope?: string;
  /** `resource_metadata` from the last 401 challenge, so the sign-in discovers the same way. */
  pendingResourceMetadataUrl?: string;
  /** A server with no `grantType` while a company IdP is set: whether its AS takes the IdP's jwt-bearer grant (enterprise/auto.ts). */
  crossApp?: 'yes' | 'no';
}

/** Read-modify-write access to the records, serialised per key so concurrent saves never lose a field. */
export class AuthRecordStore {
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly secrets: SecretStore) {}

  async read(key: string): Promise<AuthRecord> {
    // Wait for a pending write (its failure is reported to its own caller, not to readers).
    await this.chains.get(key)?.catch(() => undefined);
    return this.parse(await this.secrets.get(key));
  }

  /** Applies `change` to the current record; a result with no fields deletes the entry. */
  update(key: string, change: (r: AuthRecord) => AuthRecord): Promise<AuthRecord> {
    const prev = this.chains.get(key) ?? Promise.resolve();
    const next = prev
      .catch(() => undefined)
      .then(async () => {
        const current = this.parse(await this.secrets.get(key));
        const updated = dropUndefined(change({ ...current }));
        if (Object.keys(updated).length === 0) await this.secrets.delete(key);
        else await this.secrets.store(key, JSON.stringify(updated));
        return updated;
      });
    this.chains.set(key, next);
    void next
      .finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
      })
      .catch(() => undefined);
    return next;
  }

  async delete(key: string): Promise<void> {
    await this.update(key, () => ({}));
  }

  private parse(raw: string | undefined): AuthRecord {
    if (!raw) return {};
    try {
      const v: unknown = JSON.parse(raw);
      return v && typeof v === 'object' ? (v as AuthRecord) : {};
    } catch {
      // A corrupt entry is treated as "signed out" rather than blocking the server forever.
      return {};
    }
  }
}

function dropUndefined(r: AuthRecord): AuthRecord {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (v !== undefined) out[k] = v;
  return out as AuthRecord;
}
