/**
 * The zod schema of the managed file's `sandboxPolicy` (sandbox-policy.ts reads it). A file of its own:
 * building it needs zod, which activation does not load (scripts/lib/deferred-modules.mjs); only a
 * policy file that has a `sandboxPolicy` reaches it.
 */
import * as z from 'zod/v4';
import { SCOPES } from './scope.js';

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
export const sandboxPolicySchema = z.object({
  required: z.boolean().optional(),
  exemptServers: z.array(exemption).optional(),
  allowedDomains: strings,
  allowWrite: strings,
  denyRead: strings,
  deniedDomains: strings,
});
