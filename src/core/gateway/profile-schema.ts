/**
 * The zod schema of one gateway profile (profiles.ts reads `mcpHost.gateway.profiles` with it). A file
 * of its own: building it needs zod, which activation does not load (scripts/lib/deferred-modules.mjs),
 * and the view settings are read at activation; only a profile that is set reaches it.
 */
import * as z from 'zod/v4';

export const profileSchema = z
  .object({
    servers: z.array(z.string()).optional(),
    tools: z.array(z.string()).optional(),
    readOnly: z.boolean().optional(),
    toolSearch: z.enum(['auto', 'on', 'off']).optional(),
    users: z.array(z.string()).optional(),
    groups: z.array(z.string()).optional(),
  })
  .strict();
