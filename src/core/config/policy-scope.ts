/**
 * The managed policy's switches over where servers may come from ("managedServersOnly",
 * "registryOnly") and the managed files themselves: a system file at a fixed per-OS path that
 * always applies, then the file named by `mcpHost.managedConfigPath` / `MCP_HOST_MANAGED_CONFIG`.
 * Each file is a layer and every layer binds, so a user-chosen file can add rules but never lift
 * one: its servers do not count as "managed" under a system file's switch.
 */
import { formatJsonPath } from './jsonc.js';
import type { Admission, ConfigProblem, Policy, PolicySwitch, ServerDefinition } from './types.js';

export type { PolicySwitch, RegistryCheck } from './types.js';

/** Where the system policy file lives on each OS; no user setting can move or remove it. */
export function systemPolicyPath(platform: NodeJS.Platform, env: Record<string, string | undefined>): string {
  if (platform === 'win32') return `${env.ProgramData || 'C:\\ProgramData'}\\MCPHost\\managed.json`;
  if (platform === 'darwin') return '/Library/Application Support/MCPHost/managed.json';
  return '/etc/mcp-host/managed.json';
}

export interface ManagedFilesInput {
  /** The setting's (or the CLI's environment's) managed file; adds a layer. */
  managedPath?: string;
  /** The system file; undefined: the OS default (systemPolicyPath); '': none (tests). */
  systemManagedPath?: string;
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
}

/** The managed files in authority order: the system file first. */
export function managedPolicyFiles(o: ManagedFilesInput): string[] {
  const system = o.systemManagedPath ?? systemPolicyPath(o.platform ?? process.platform, o.env ?? process.env);
  return [...new Set([system, o.managedPath ?? ''].filter((f) => f !== ''))];
}

/** One policy over several files: undefined when none exists. */
export function combinePolicies(layers: Policy[]): Policy | undefined {
  if (layers.length <= 1) return layers[0];
  return { file: layers.map((l) => l.file).join(', '), denied: [], layers };
}

function readSwitch(
  doc: Record<string, unknown>,
  key: 'managedServersOnly' | 'registryOnly',
  file: string,
  problems: ConfigProblem[],
): PolicySwitch | undefined {
  const v = doc[key];
  if (v === undefined || v === false) return undefined;
  if (v !== true) {
    // Fail closed: an administrator who wrote the key meant to restrict.
    problems.push({
      severity: 'error',
      code: 'policy',
      message: `"${key}" must be true or false; it is treated as true until it is fixed.`,
      file,
      jsonPath: [key],
      scope: 'managed',
    });
  }
  return { file, jsonPath: [key] };
}

/** Reads the switches of one managed file (called by parsePolicy). */
export function parseSwitches(
  doc: Record<string, unknown>,
  file: string,
  problems: ConfigProblem[],
): Pick<Policy, 'managedOnly' | 'registryOnly'> {
  const out: Pick<Policy, 'managedOnly' | 'registryOnly'> = {};
  const managedOnly = readSwitch(doc, 'managedServersOnly', file, problems);
  if (managedOnly) out.managedOnly = managedOnly;
  const registryOnly = readSwitch(doc, 'registryOnly', file, problems);
  if (registryOnly) {
    const reg = doc.registry as { url?: unknown } | undefined;
    const url = reg && typeof reg === 'object' && typeof reg.url === 'string' && reg.url.trim() ? reg.url.trim() : '';
    out.registryOnly = url ? { ...registryOnly, registryUrl: url } : registryOnly;
  }
  return out;
}

function layersOf(policy: Policy): Policy[] {
  return policy.layers ?? [policy];
}

/** The "registryOnly" switch in force, if any: the first layer that sets it. */
export function registryOnlyOf(policy: Policy | undefined): Policy['registryOnly'] {
  return policy ? layersOf(policy).find((l) => l.registryOnly)?.registryOnly : undefined;
}

function heldBy(sw: PolicySwitch, message: string): Admission {
  return {
    run: false,
    reason: 'policy',
    message: `${message} (policy in ${sw.file}, at ${formatJsonPath(sw.jsonPath)}). Ask your administrator.`,
    rule: { file: sw.file, jsonPath: sw.jsonPath },
  };
}

/**
 * The switches' verdict on one server, or undefined when they let it run. A managed server counts
 * only when its file is the switch's own layer or a stronger one (the system file before the
 * setting's).
 */
export function scopeAdmission(def: ServerDefinition, policy: Policy | undefined): Admission | undefined {
  if (!policy) return undefined;
  const layers = layersOf(policy);
  for (const [i, layer] of layers.entries()) {
    const sw = layer.managedOnly ?? layer.registryOnly;
    if (!sw) continue;
    const trusted = layers.slice(0, i + 1).map((l) => l.file);
    if (def.source.scope === 'managed' && trusted.includes(def.source.file)) continue;
    if (layer.managedOnly) {
      return heldBy(
        layer.managedOnly,
        `Server "${def.name}" is not one of the administrator's managed servers, and only those may run (${def.source.scope} scope, ${def.source.file})`,
      );
    }
    const check = policy.registryChecks?.get(def.name);
    if (check?.ok) continue;
    const why = def.config.registry
      ? (check?.message ?? `the registry has not confirmed "${def.config.registry.id}"`)
      : 'it was not installed from the registry (Browse Registry, or mcp-host add --from-registry)';
    return heldBy(layer.registryOnly!, `Server "${def.name}" may only run when it comes from the registry: ${why}`);
  }
  return undefined;
}
