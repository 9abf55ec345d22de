/**
 * Allow/deny policy from the managed file. Entries match by `serverName`, `serverCommand` or
 * `serverUrl`. Deny beats allow; when an allow-list exists (even an empty one) anything not on it
 * is denied. Commands match conservatively in both directions: a deny entry matches when it is a
 * prefix of the server's [command, ...args] (so extra arguments do not slip past), an allow entry
 * only when it equals it exactly (so extra arguments cannot smuggle in a different server).
 */
import { formatJsonPath, type JsonPath } from './jsonc.js';
import { parseSwitches } from './policy-scope.js';
import type { ConfigProblem, Policy, PolicyEntry, ServerConfig } from './types.js';
import { parseSandboxPolicy } from './sandbox-policy.js';

export type { Policy, PolicyEntry } from './types.js';

/** Where each parsed rule was written, so a verdict can name it. */
const rulePaths = new WeakMap<PolicyEntry, JsonPath>();

function parseEntries(value: unknown, key: string, file: string, problems: ConfigProblem[]): PolicyEntry[] {
  if (!Array.isArray(value)) {
    problems.push({
      severity: 'error',
      code: 'policy',
      message: `"${key}" must be an array of { "serverName" | "serverCommand" | "serverUrl": ... } rules.`,
      file,
      jsonPath: [key],
      scope: 'managed',
    });
    return [];
  }
  const out: PolicyEntry[] = [];
  value.forEach((e: unknown, i) => {
    const path: JsonPath = [key, i];
    const o = e as Record<string, unknown> | null;
    const isStrArray = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
    const keys =
      o && typeof o === 'object' && !Array.isArray(o)
        ? Object.keys(o).filter((k) => ['serverName', 'serverCommand', 'serverUrl'].includes(k))
        : [];
    const valid =
      keys.length === 1 &&
      ((keys[0] === 'serverName' && typeof o!.serverName === 'string') ||
        (keys[0] === 'serverCommand' && isStrArray(o!.serverCommand)) ||
        (keys[0] === 'serverUrl' && typeof o!.serverUrl === 'string'));
    if (!valid) {
      problems.push({
        severity: 'error',
        code: 'policy',
        message: `Policy rule ${formatJsonPath(path)} must have exactly one of "serverName" (a string), "serverCommand" (a non-empty array of strings) or "serverUrl" (a string, * as wildcard); it is ignored.`,
        file,
        jsonPath: path,
        scope: 'managed',
      });
      return;
    }
    const entry = { [keys[0]]: o![keys[0]] } as PolicyEntry;
    rulePaths.set(entry, path);
    out.push(entry);
  });
  return out;
}

/** Reads `allowedServers` / `deniedServers` from the managed file's parsed object. */
export function parsePolicy(doc: Record<string, unknown>, file: string): { policy: Policy; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const policy: Policy = {
    file,
    denied: doc.deniedServers === undefined ? [] : parseEntries(doc.deniedServers, 'deniedServers', file, problems),
  };
  if (doc.allowedServers !== undefined)
    policy.allowed = parseEntries(doc.allowedServers, 'allowedServers', file, problems);
  Object.assign(policy, parseSwitches(doc, file, problems));
  const sb = parseSandboxPolicy(doc.sandboxPolicy, file);
  if (sb.policy) policy.sandbox = sb.policy;
  problems.push(...sb.problems);
  return { policy, problems };
}

function wildcardMatch(pattern: string, s: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );
  return re.test(s);
}

function describeRule(e: PolicyEntry): string {
  if (e.serverName !== undefined) return `serverName ${JSON.stringify(e.serverName)}`;
  if (e.serverCommand !== undefined) return `serverCommand ${JSON.stringify(e.serverCommand)}`;
  return `serverUrl ${JSON.stringify(e.serverUrl)}`;
}

function matches(e: PolicyEntry, name: string, config: ServerConfig, mode: 'prefix' | 'exact'): boolean {
  if (e.serverName !== undefined) return e.serverName === name;
  if (e.serverCommand !== undefined) {
    if (config.type !== 'stdio') return false;
    const line = [config.command, ...config.args];
    const rule = e.serverCommand;
    if (mode === 'exact' ? rule.length !== line.length : rule.length > line.length) return false;
    return rule.every((r, i) => r === line[i]);
  }
  if (e.serverUrl !== undefined) {
    if (config.type === 'stdio' || config.type === 'inprocess') return false;
    let normalised = config.url;
    try {
      normalised = new URL(config.url).href;
    } catch {
      // An unparsable URL is matched as written.
    }
    return wildcardMatch(e.serverUrl, config.url) || wildcardMatch(e.serverUrl, normalised);
  }
  return false;
}

export type PolicyVerdict =
  | { allowed: true }
  | { allowed: false; reason: string; /** The deciding file and rule. */ file?: string; jsonPath?: JsonPath };

/** Decides whether a server may run under the policy; the reason says which rule decided. */
export function evaluatePolicy(policy: Policy | undefined, name: string, config: ServerConfig): PolicyVerdict {
  if (!policy) return { allowed: true };
  if (policy.layers) {
    for (const layer of policy.layers) {
      const v = evaluatePolicy(layer, name, config);
      if (!v.allowed) return v;
    }
    return { allowed: true };
  }
  if (policy.broken) {
    return {
      allowed: false,
      reason: `the managed policy file ${policy.file} cannot be read, so no server may start until it is fixed`,
      file: policy.file,
      jsonPath: [],
    };
  }
  const deny = policy.denied.find((e) => matches(e, name, config, 'prefix'));
  if (deny) {
    const at = rulePaths.get(deny) ?? ['deniedServers'];
    return {
      allowed: false,
      reason: `it matches the deny rule ${describeRule(deny)} (at ${formatJsonPath(at)})`,
      file: policy.file,
      jsonPath: at,
    };
  }
  if (policy.allowed && !policy.allowed.some((e) => matches(e, name, config, 'exact'))) {
    return {
      allowed: false,
      reason: 'it is not on the allow-list (allowedServers)',
      file: policy.file,
      jsonPath: ['allowedServers'],
    };
  }
  return { allowed: true };
}
