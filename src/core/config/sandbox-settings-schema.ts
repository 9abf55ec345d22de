/**
 * The zod schema of a `sandbox` object (sandbox-settings.ts reads it, entry-schema.ts and
 * schema-json.ts build on it). A file of its own: building it needs zod, which activation does not
 * load (scripts/lib/deferred-modules.mjs); only a file or an entry with a `sandbox` reaches it.
 */
import * as z from 'zod/v4';

const list = (description: string) =>
  z
    .array(z.string().min(1, { error: 'must not be empty' }))
    .meta({ description })
    .optional();

export const sandboxSettingsSchema = z
  .object({
    filesystem: z
      .object({
        allowWrite: list(
          'Paths the server may write besides its workspace folder and its own temporary folder (`~/` is your home).',
        ),
        denyWrite: list('Paths inside allowed ones the server may not write.'),
        denyRead: list('Paths the server may not read (added to the credential stores that are always hidden).'),
      })
      .meta({ description: 'What the sandboxed server may read and write.' })
      .optional(),
    network: z
      .object({
        allowedDomains: list(
          'Domains the server may connect to, e.g. "api.github.com" or "*.example.com" (the npm registry is allowed by default).',
        ),
        deniedDomains: list('Domains the server may never connect to, even when another rule allows them.'),
      })
      .meta({ description: 'Where the sandboxed server may connect; everything else is refused.' })
      .optional(),
  })
  .meta({
    description:
      'Sandbox rules for the local servers with "sandboxEnabled": true (Linux: bubblewrap; macOS: sandbox-exec). Same shape as VS Code\'s mcp.json.',
  });

export type SandboxSettings = z.infer<typeof sandboxSettingsSchema>;
