/**
 * `add`, `add-json` and `import` under a managed switch: refused before anything is written, naming
 * the rule, rather than writing an entry the same policy then holds back at every start.
 */
import { formatJsonPath, type Policy, type PolicySwitch } from '../core/config/index.js';
import { usageError } from './errors.js';

function firstSwitch(policy: Policy | undefined, key: 'managedOnly' | 'registryOnly'): PolicySwitch | undefined {
  if (!policy) return undefined;
  return (policy.layers ?? [policy]).find((l) => l[key])?.[key];
}

const where = (sw: PolicySwitch): string => `${sw.file} at ${formatJsonPath(sw.jsonPath)}`;

/** Throws the usage error (exit 2) when the policy would hold the new entry back. */
export function refuseAddUnderPolicy(policy: Policy | undefined, fromRegistry: boolean): void {
  const managed = firstSwitch(policy, 'managedOnly');
  if (managed)
    throw usageError(
      `the managed policy allows only the administrator's servers ("managedServersOnly", ${where(managed)}); nothing was added`,
      'Ask your administrator to add the server to the managed file.',
    );
  const registry = firstSwitch(policy, 'registryOnly');
  if (registry && !fromRegistry)
    throw usageError(
      `the managed policy allows only servers installed from the registry ("registryOnly", ${where(registry)}); nothing was added`,
      'Install it with mcp-host add NAME --from-registry ID.',
    );
}
