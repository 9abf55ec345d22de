/**
 * "Always allow sampling" is remembered per definition, not per name: a project `.mcp.json`
 * server named like a user server runs a different program and must not inherit its consent. An
 * entry is `<name>#<key>`, the key a short hash of the scope, the file and the definition's
 * approval hash (what would run), as approvals are keyed (../config/approvals.ts): any change to
 * the definition asks again. Old entries (a bare name, before this key existed) still count for a
 * definition in the user's own settings, the only place they could have meant, and are rewritten
 * to the keyed form at first use; for any other definition of that name they grant nothing.
 */
import { approvalHashOf } from '../config/approvals.js';
import { stableHash } from '../config/signature.js';
import type { ServerDefinition } from '../config/types.js';

export function samplingConsentEntry(def: ServerDefinition): string {
  const key = stableHash({ scope: def.source.scope, file: def.source.file, approval: approvalHashOf(def) }).slice(
    0,
    16,
  );
  return `${def.name}#${key}`;
}

/** The server name an entry is for (a bare legacy name is its own). */
export function consentEntryName(entry: string): string {
  const i = entry.lastIndexOf('#');
  return i === -1 ? entry : entry.slice(0, i);
}

/**
 * `allowed`: a keyed entry matches this definition; `legacy`: only a bare-name entry does and the
 * definition is the user's own (allowed; rewrite it with `migrated`); `none`: ask.
 */
export function samplingConsentStatus(
  entries: readonly string[],
  def: ServerDefinition | undefined,
): 'allowed' | 'legacy' | 'none' {
  if (!def) return 'none';
  if (entries.includes(samplingConsentEntry(def))) return 'allowed';
  return def.source.scope === 'user' && entries.includes(def.name) ? 'legacy' : 'none';
}

/** The entries with this definition allowed (its bare legacy name, if any, replaced). */
export function withSamplingConsent(entries: readonly string[], def: ServerDefinition): string[] {
  const entry = samplingConsentEntry(def);
  const rest = entries.filter((e) => e !== def.name && e !== entry);
  return [...rest, entry];
}

/** The entries without any consent for the name (keyed or bare). */
export function withoutSamplingConsent(entries: readonly string[], name: string): string[] {
  return entries.filter((e) => consentEntryName(e) !== name);
}
