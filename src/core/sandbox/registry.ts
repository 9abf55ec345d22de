/**
 * The sandbox an install from the MCP registry suggests for a package: `sandboxEnabled` with the
 * domains the entry implies — its package registry (for `npx`/`uvx` fetching at start), the hosts
 * of the server's own remotes (a package that also runs at api.x.com talks to it), and hosts in
 * URL defaults of its environment variables.
 */
import type { RegistryServer } from '../registry/schema.js';
import type { SandboxSettings } from '../config/sandbox-settings.js';

const REGISTRY_DOMAINS: Record<string, string[]> = {
  npm: ['registry.npmjs.org'],
  pypi: ['pypi.org', 'files.pythonhosted.org'],
  nuget: ['api.nuget.org'],
};

function hostOfUrl(u: string | undefined): string | undefined {
  if (!u || !/^https?:\/\//i.test(u)) return undefined;
  try {
    const h = new URL(u).hostname;
    return h.includes('{') ? undefined : h;
  } catch {
    return undefined;
  }
}

export function suggestedSandbox(
  server: RegistryServer,
  packageIndex: number,
): { sandboxEnabled: true; sandbox: SandboxSettings } {
  const p = server.packages[packageIndex];
  const domains = new Set<string>(REGISTRY_DOMAINS[p?.registryType ?? ''] ?? []);
  for (const r of server.remotes) {
    const h = hostOfUrl(r.url);
    if (h) domains.add(h);
  }
  for (const v of p?.environmentVariables ?? []) {
    const h = hostOfUrl((v as { default?: string }).default ?? (v as { value?: string }).value);
    if (h) domains.add(h);
  }
  return { sandboxEnabled: true, sandbox: { network: { allowedDomains: [...domains] } } };
}
