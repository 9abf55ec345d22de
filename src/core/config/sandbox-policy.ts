/**
 * The managed file's `sandboxPolicy`: require the sandbox for every local server (or every one not
 * exempt) and cap what any sandboxed server may be allowed.
 *
 *   "sandboxPolicy": { "required": true,
 *                      "exemptServers": [{ "serverName": "trusted", "serverCommand": ["/opt/corp/trusted"] }],
 *                      "allowedDomains": ["*.corp.example"], "allowWrite": ["~/work"],
 *                      "denyRead": ["~/corp-secrets"], "deniedDomains": ["paste.example"] }
 *
 * An exemption is what the administrator vetted, not a name anyone can take: it applies only to a
 * server defined in the managed file or the user's own settings unless it names other `scopes`
 * (a repository's `.mcp.json` cannot claim it by naming its server "trusted"), and with
 * `serverCommand` only to that exact command line.
 */
import { z } from 'zod';
import type { ConfigProblem } from './problem.js';
import { SCOPES, type Scope } from './scope.js';

/** One exemption; every field it gives must match. */
export interface SandboxExemption {
  serverName?: string;
  serverCommand?: string[];
  /** Where the server's definition may come from; default managed and user. */
  scopes?: Scope[];
}

/** Scopes an exemption without `scopes` covers: files only the administrator or the user write. */
export const DEFAULT_EXEMPT_SCOPES: readonly Scope[] = ['managed', 'user'];

export interface SandboxPolicy {
  required: boolean;
  /** Servers the requirement does not apply to. */
  exempt: SandboxExemption[];
  /** Caps: a server's own rules outside these are dropped (undefined: no cap). */
  allowedDomains?: string[];
  allowWrite?: string[];
  /** Added to every sandboxed server's rules. */
  denyRead?: string[];
  deniedDomains?: string[];
}

const strings = z.array(z.string().min(1)).optional();
const exemption = z
  .object({
    serverName: z.string().min(1).optional().meta({ description: "The server's name." }),
    serverCommand: z
      .array(z.string())
      .min(1)
      .optional()
      .meta({ description: 'The exact command line (command, then each argument) the server must have.' }),
    scopes: z.array(z.enum(SCOPES)).min(1).optional().meta({
      description:
        'Where its definition may come from. Default ["managed", "user"]: a workspace or project file cannot claim an exemption unless it is named here.',
    }),
  })
  .strict()
  .refine((e) => e.serverName !== undefined || e.serverCommand !== undefined, {
    error: 'needs "serverName" or "serverCommand"',
  })
  .meta({ description: 'A server exempt from "required"; every field given must match.' });
const schema = z.object({
  required: z.boolean().optional(),
  exemptServers: z.array(exemption).optional(),
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

/** What `sandboxRequired` matches an exemption against. */
export interface ExemptionSubject {
  name: string;
  /** Command, then its arguments. */
  line: readonly string[];
  scope: Scope;
}

function exempts(e: SandboxExemption, s: ExemptionSubject): boolean {
  if (!(e.scopes ?? DEFAULT_EXEMPT_SCOPES).includes(s.scope)) return false;
  if (e.serverName !== undefined && e.serverName !== s.name) return false;
  const cmd = e.serverCommand;
  if (cmd !== undefined && !(cmd.length === s.line.length && cmd.every((x, i) => x === s.line[i]))) return false;
  return e.serverName !== undefined || cmd !== undefined;
}

/** Whether the policy requires this stdio server to run sandboxed. Exemptions match exactly. */
export function sandboxRequired(policy: SandboxPolicy | undefined, subject: ExemptionSubject): boolean {
  if (!policy?.required) return false;
  return !policy.exempt.some((e) => exempts(e, subject));
}
