/**
 * The managed file's `sandboxPolicy`: require the sandbox for every local server (or every one not
 * exempt) and cap what any sandboxed server may be allowed.
 *
 *   "sandboxPolicy": { "required": true, "exemptServers": [{ "serverName": "trusted" }],
 *                      "allowedDomains": ["*.corp.example"], "allowWrite": ["~/work"],
 *                      "denyRead": ["~/corp-secrets"], "deniedDomains": ["paste.example"] }
 */
import { z } from 'zod';
import type { ConfigProblem } from '../config/problem.js';

export interface SandboxPolicy {
  required: boolean;
  /** Servers the requirement does not apply to; same rule shapes as `allowedServers`. */
  exempt: { serverName?: string; serverCommand?: string[] }[];
  /** Caps: a server's own rules outside these are dropped (undefined: no cap). */
  allowedDomains?: string[];
  allowWrite?: string[];
  /** Added to every sandboxed server's rules. */
  denyRead?: string[];
  deniedDomains?: string[];
}

const strings = z.array(z.string().min(1)).optional();
const schema = z.object({
  required: z.boolean().optional(),
  exemptServers: z
    .array(
      z.union([
        z.object({ serverName: z.string() }).strict(),
        z.object({ serverCommand: z.array(z.string()).min(1) }).strict(),
      ]),
    )
    .optional(),
  allowedDomains: strings,
  allowWrite: strings,
  denyRead: strings,
  deniedDomains: strings,
});

/**
 * Reads `sandboxPolicy`. A broken one fails closed: the sandbox is required for every local
 * server and nothing beyond the default profile is allowed, until it is fixed.
 */
export function parseSandboxPolicy(
  value: unknown,
  file: string,
): { policy?: SandboxPolicy; problems: ConfigProblem[] } {
  if (value === undefined) return { problems: [] };
  const r = schema.safeParse(value);
  if (!r.success) {
    const i = r.error.issues[0];
    return {
      policy: { required: true, exempt: [], allowedDomains: [], allowWrite: [] },
      problems: [
        {
          severity: 'error',
          code: 'policy',
          message: `"sandboxPolicy.${i.path.join('.')}" ${i.message}. Until it is fixed every local server runs sandboxed with nothing beyond the default rules.`,
          file,
          jsonPath: ['sandboxPolicy', ...(i.path as (string | number)[])],
          scope: 'managed',
        },
      ],
    };
  }
  const v = r.data;
  return {
    policy: {
      required: v.required ?? false,
      exempt: v.exemptServers ?? [],
      ...(v.allowedDomains ? { allowedDomains: v.allowedDomains } : {}),
      ...(v.allowWrite ? { allowWrite: v.allowWrite } : {}),
      ...(v.denyRead ? { denyRead: v.denyRead } : {}),
      ...(v.deniedDomains ? { deniedDomains: v.deniedDomains } : {}),
    },
    problems: [],
  };
}

/** Whether the policy requires this stdio server to run sandboxed. Exemptions match exactly. */
export function sandboxRequired(policy: SandboxPolicy | undefined, name: string, line: readonly string[]): boolean {
  if (!policy?.required) return false;
  return !policy.exempt.some((e) =>
    e.serverName !== undefined
      ? e.serverName === name
      : e.serverCommand!.length === line.length && e.serverCommand!.every((x, i) => x === line[i]),
  );
}
