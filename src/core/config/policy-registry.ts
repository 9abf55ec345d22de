/**
 * "registryOnly" at start: each non-managed server must name the registry server it was installed
 * from, and the registry (the one the managed file names, never a user setting) must still list it
 * with a package or remote this entry runs. Unreachable, unknown or different: it does not run.
 */
import { DEFAULT_REGISTRY_URL, RegistryClient, RegistryError } from '../registry/client.js';
import { installedAs } from '../registry/installed.js';
import type { RegistryServer } from '../registry/schema.js';
import { registryOnlyOf, type RegistryCheck } from './policy-scope.js';
import type { Policy, ServerDefinition } from './types.js';

/** The registry's verdict per server name, for the servers a "registryOnly" policy asks about. */
export async function checkRegistry(
  defs: readonly ServerDefinition[],
  policy: Policy | undefined,
  o: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<Map<string, RegistryCheck>> {
  const checks = new Map<string, RegistryCheck>();
  const rule = registryOnlyOf(policy);
  if (!rule) return checks;
  const client = new RegistryClient({
    baseUrl: rule.registryUrl ?? DEFAULT_REGISTRY_URL,
    fetch: o.fetch,
    timeoutMs: o.timeoutMs,
  });
  const lookups = new Map<string, Promise<RegistryServer>>();
  await Promise.all(
    defs.map(async (d) => {
      const id = d.config.registry?.id;
      if (d.source.scope === 'managed' || !id) return;
      if (!lookups.has(id)) lookups.set(id, client.get(id));
      try {
        const server = await lookups.get(id)!;
        checks.set(
          d.name,
          installedAs(server, [d]).length
            ? { ok: true }
            : {
                ok: false,
                message: `its command or URL is not one of the packages or remotes the registry lists for "${id}"`,
              },
        );
      } catch (e) {
        const why = e instanceof RegistryError ? e.message : (e as Error).message;
        checks.set(d.name, {
          ok: false,
          message: `the registry at ${client.baseUrl} could not confirm "${id}": ${why}`,
        });
      }
    }),
  );
  return checks;
}
