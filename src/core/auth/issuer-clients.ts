/**
 * Client registrations keyed by the authorization server's issuer (MCP 2026-07-28): two servers
 * behind one issuer share a registration, and a server whose resource metadata now names another
 * issuer never offers the old issuer's client id there. Records written before this kept the
 * registration inside the server's own entry; it moves to the issuer's entry on first use, so
 * nobody has to sign in again.
 */
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { issuerClientKey, sameIssuer } from './keys.js';
import type { AuthRecord, AuthRecordStore } from './store.js';

/** The issuer a server's record was discovered at (validated metadata first, as the SDK does). */
export function recordIssuer(record: AuthRecord): string | undefined {
  const d = record.discovery;
  return (
    d?.authorizationServerMetadata?.issuer ?? (d?.authorizationServerUrl ? String(d.authorizationServerUrl) : undefined)
  );
}

/** A registration kept in the server's own record that belongs to `issuer` (stamped, or discovered there). */
function legacyClientFor(record: AuthRecord, issuer: string): StoredOAuthClientInformation | undefined {
  const client = record.client as StoredOAuthClientInformation | undefined;
  if (!client) return undefined;
  const stamp = client.issuer ?? recordIssuer(record);
  return stamp !== undefined && sameIssuer(stamp, issuer) ? { ...client, issuer: stamp } : undefined;
}

/** The registration for `issuer`, moving a legacy per-server one into the shared entry on the way. */
export async function registrationFor(
  store: AuthRecordStore,
  recordKey: string,
  issuer: string,
): Promise<StoredOAuthClientInformation | undefined> {
  const shared = (await store.read(issuerClientKey(issuer))).client as StoredOAuthClientInformation | undefined;
  if (shared) return shared;
  const legacy = legacyClientFor(await store.read(recordKey), issuer);
  if (!legacy) return undefined;
  await saveRegistration(store, issuer, legacy);
  await store.update(recordKey, (r) => ({ ...r, client: undefined }));
  return legacy;
}

export async function saveRegistration(
  store: AuthRecordStore,
  issuer: string,
  client: StoredOAuthClientInformation,
): Promise<void> {
  await store.update(issuerClientKey(issuer), (r) => ({ ...r, client: { ...client, issuer } }));
}

export async function forgetRegistration(store: AuthRecordStore, issuer: string): Promise<void> {
  await store.update(issuerClientKey(issuer), (r) => ({ ...r, client: undefined }));
}

/** The registration a record's sign-in used: the shared one of its issuer, else a legacy one of its own. */
export async function registrationOfRecord(
  store: AuthRecordStore,
  recordKey: string,
  record: AuthRecord,
): Promise<StoredOAuthClientInformation | undefined> {
  const issuer = recordIssuer(record);
  if (issuer) return registrationFor(store, recordKey, issuer);
  return record.client as StoredOAuthClientInformation | undefined;
}
