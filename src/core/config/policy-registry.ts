/**
 * "registryOnly" at start: each non-managed server must name the registry server it was installed
 * from, and the registry (the one the managed file names, never a user setting) must still list it,
 * at the version the entry records (else the latest), with a package or remote whose launch is
 * exactly this entry's (launch-match.ts: only the values the registry declares as variable may
 * differ). Unreachable, unknown, deprecated, deleted or different: it does not run.
 */
import { DEFAULT_REGISTRY_URL, RegistryClient, RegistryError } from '../registry/client.js';
import { launchDifference } from './registry-launch-match.js';
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
      const version = d.config.registry?.version;
      // The version the entry was installed at is the one the registry must vouch for.
      const key = JSON.stringify([id, version ?? null]);
      if (!lookups.has(key)) lookups.set(key, client.get(id, version === undefined ? {} : { version }));
      try {
        const server = await lookups.get(key)!;
        const at = `"${id}"${version ? ` ${version}` : ''}`;
        // A withdrawn entry vouches for nothing, whatever it installs: the registry took it back.
        if (server.status === 'deleted' || server.status === 'deprecated') {
          checks.set(d.name, { ok: false, message: `the registry marks ${at} ${server.status}` });
          return;
        }
        const differs = launchDifference(server, d.config);
        checks.set(
          d.name,
          differs === undefined
            ? { ok: true }
            : {
                ok: false,
                message: `it is not one of the packages or remotes the registry lists for ${at} as they install: ${differs}`,
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
