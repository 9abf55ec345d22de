/**
 * Sandbox settings in VS Code's `mcp.json` shape (`IMcpSandboxConfiguration`): `"sandboxEnabled": true`
 * on a stdio server and one `"sandbox": { filesystem, network }` object per file, so a file written
 * for VS Code means the same here. An entry may also carry its own `sandbox` object, which is added
 * to its file's. Paths may start with `~/`; they are expanded when the plan is made (plan.ts).
 */
import { z } from 'zod';

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

/** The rules one sandboxed server runs under, paths absolute. */
export interface SandboxPlan {
  filesystem: {
    allowWrite: string[];
    denyWrite: string[];
    denyRead: string[];
    /**
     * MCP Host's own secret folders (also in `denyRead`): made (0700) before each spawn, since the
     * sandbox sees the host's file system live and a folder made after it started would show.
     */
    privateDirs?: string[];
  };
  network: { allowedDomains: string[]; deniedDomains: string[] };
  /** Why it is sandboxed: its config asked, or the managed policy requires it. */
  by: 'config' | 'policy';
}

const uniq = (xs: readonly string[]): string[] => [...new Set(xs)];

/** Adds `extra`'s lists to `base`'s (a per-server `sandbox` adds to its file's, never removes). */
export function mergeSandboxSettings(
  base: SandboxSettings | undefined,
  extra: SandboxSettings | undefined,
): SandboxSettings | undefined {
  if (!base) return extra;
  if (!extra) return base;
  const cat = (a?: string[], b?: string[]) => (a || b ? uniq([...(a ?? []), ...(b ?? [])]) : undefined);
  const fs = {
    allowWrite: cat(base.filesystem?.allowWrite, extra.filesystem?.allowWrite),
    denyWrite: cat(base.filesystem?.denyWrite, extra.filesystem?.denyWrite),
    denyRead: cat(base.filesystem?.denyRead, extra.filesystem?.denyRead),
  };
  const net = {
    allowedDomains: cat(base.network?.allowedDomains, extra.network?.allowedDomains),
    deniedDomains: cat(base.network?.deniedDomains, extra.network?.deniedDomains),
  };
  return { filesystem: dropUndefined(fs), network: dropUndefined(net) };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Checks a file's top-level `sandbox`; returns the settings or a message naming the bad field. */
export function parseSandboxSettings(
  value: unknown,
): { ok: true; value: SandboxSettings } | { ok: false; message: string } {
  const r = sandboxSettingsSchema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const i = r.error.issues[0];
  return { ok: false, message: `"sandbox.${i.path.join('.')}" ${i.message}` };
}

/** One line per rule kind, for tooltips, `mcp-host list` and logs. */
export function describePlan(plan: SandboxPlan): string[] {
  const or = (xs: string[], none: string) => (xs.length ? xs.join(', ') : none);
  return [
    `Sandboxed${plan.by === 'policy' ? ' (required by policy)' : ''}`,
    `Writes: ${or(plan.filesystem.allowWrite, 'nowhere but its temporary folder')}`,
    `Network: ${or(plan.network.allowedDomains, 'none')}`,
    ...(plan.network.deniedDomains.length ? [`Denied domains: ${plan.network.deniedDomains.join(', ')}`] : []),
    `Hidden: credential stores${plan.filesystem.denyRead.length ? ` and ${plan.filesystem.denyRead.length} more paths` : ''}`,
  ];
}
