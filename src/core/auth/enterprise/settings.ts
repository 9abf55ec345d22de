/**
 * Which company IdP to sign in to: `"enterpriseIdp": {issuer, clientId, clientSecret?, scopes?}` in
 * a managed file (the first file that has one: the system file before the setting's), else the
 * user's `mcpHost.enterpriseIdp` setting (for individuals). A managed IdP cannot be replaced by a
 * setting. A client secret is accepted only from the managed file: settings are not for secrets.
 */
import { readDocument } from '../../config/sources/entry.js';
import type { IdpSettings } from './idp-session.js';

export interface IdpChoice {
  settings?: IdpSettings;
  /** Where it came from: a managed file or "settings:mcpHost.enterpriseIdp". */
  from?: string;
  problems: string[];
}

function parse(v: unknown, from: string, allowSecret: boolean, problems: string[]): IdpSettings | undefined {
  if (v === undefined || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const url = typeof o.issuer === 'string' && URL.canParse(o.issuer) ? new URL(o.issuer) : undefined;
  const local = url && (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]');
  if (
    typeof v !== 'object' ||
    !url ||
    (url.protocol !== 'https:' && !local) ||
    typeof o.clientId !== 'string' ||
    !o.clientId
  ) {
    problems.push(
      `${from}: "enterpriseIdp" needs "issuer" (the identity provider's https:// URL) and "clientId"; it is ignored.`,
    );
    return undefined;
  }
  if (o.clientSecret !== undefined && !allowSecret)
    problems.push(`${from}: "enterpriseIdp.clientSecret" is ignored: secrets do not belong in settings.`);
  const scopes = Array.isArray(o.scopes) ? o.scopes.filter((s): s is string => typeof s === 'string') : undefined;
  return {
    issuer: o.issuer as string,
    clientId: o.clientId,
    ...(allowSecret && typeof o.clientSecret === 'string' && o.clientSecret ? { clientSecret: o.clientSecret } : {}),
    ...(scopes?.length ? { scopes } : {}),
  };
}

/** The IdP in force, reading the managed files in authority order (policy-scope.ts `managedPolicyFiles`). */
export async function enterpriseIdpSettings(managedFiles: readonly string[], userSetting: unknown): Promise<IdpChoice> {
  const problems: string[] = [];
  for (const file of managedFiles) {
    const d = await readDocument(file, 'managed', true);
    if (!d.doc || d.doc.enterpriseIdp === undefined) continue;
    const settings = parse(d.doc.enterpriseIdp, file, true, problems);
    // A broken managed entry does not hand the choice to the user's setting.
    return settings ? { settings, from: file, problems } : { problems };
  }
  const settings = parse(userSetting, 'settings:mcpHost.enterpriseIdp', false, problems);
  return settings ? { settings, from: 'settings:mcpHost.enterpriseIdp', problems } : { problems };
}
