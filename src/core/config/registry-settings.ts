/**
 * Which registry to use, and whether one may be used at all. Organisations point
 * `mcpHost.registry.url` at their own registry; `MCP_HOST_REGISTRY_URL` overrides it (CI, the
 * CLI); an administrator turns the registry off with `"registry": {"enabled": false}` in the
 * managed file (or pins `"registry": {"url": …}`), which no user setting can override.
 */
import { readDocument } from './sources/entry.js';
import { DEFAULT_REGISTRY_URL, RegistryError } from '../registry/client.js';

export interface RegistrySettings {
  url: string;
  enabled: boolean;
  /** Why it is off, or who set the URL, for messages. */
  reason?: string;
}

export interface RegistrySettingsInput {
  /** `mcpHost.registry.url` (empty: default). */
  settingUrl?: string;
  env: Record<string, string | undefined>;
  /** `mcpHost.managedConfigPath`. */
  managedPath?: string;
}

export async function registrySettings(o: RegistrySettingsInput): Promise<RegistrySettings> {
  let url = o.env.MCP_HOST_REGISTRY_URL?.trim() || o.settingUrl?.trim() || DEFAULT_REGISTRY_URL;
  if (o.managedPath) {
    const d = await readDocument(o.managedPath, 'managed', true);
    // A managed file that cannot be read fails closed, like its server policy.
    if (!d.missing && !d.doc)
      return { url, enabled: false, reason: `the managed file ${o.managedPath} cannot be read` };
    const r = d.doc?.registry;
    if (r === false) return { url, enabled: false, reason: `turned off by the administrator (${o.managedPath})` };
    if (r && typeof r === 'object' && !Array.isArray(r)) {
      const reg = r as { enabled?: unknown; url?: unknown };
      if (reg.enabled === false)
        return { url, enabled: false, reason: `turned off by the administrator (${o.managedPath})` };
      if (typeof reg.url === 'string' && reg.url.trim()) url = reg.url.trim();
    }
  }
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http');
  } catch {
    return {
      url,
      enabled: false,
      reason: `"${url}" is not an http(s) URL (mcpHost.registry.url / MCP_HOST_REGISTRY_URL)`,
    };
  }
  return { url, enabled: true };
}

/** Throws the RegistryError a caller shows when the registry is off. */
export function requireEnabled(s: RegistrySettings): void {
  if (!s.enabled)
    throw new RegistryError('disabled', `The MCP registry is not available: ${s.reason ?? 'turned off'}.`);
}
