/**
 * The parts of the MCP Registry's `server.json` (schema 2025-09-29 and later, API v0.1) that a
 * host needs to install a server. Parsing is lenient on purpose: unknown fields pass through
 * (registries and newer schema versions add them), and a server entry that does not fit is
 * skipped with a reason instead of failing the whole page.
 */
import * as z from 'zod/v4';

/** A value the user may have to supply; `{name}` in `value` refers to `variables`. */
const inputFields = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.string().optional(),
  value: z.string().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
};

const inputSchema = z.looseObject(inputFields);

const withVariables = { ...inputFields, variables: z.record(z.string(), inputSchema).optional() };

export const keyValueInputSchema = z.looseObject({ ...withVariables, name: z.string().min(1) });

export const argumentSchema = z.looseObject({
  ...withVariables,
  type: z.enum(['positional', 'named']),
  /** Named arguments: the flag, dashes included. */
  name: z.string().optional(),
  valueHint: z.string().optional(),
  isRepeated: z.boolean().optional(),
});

const transportSchema = z.looseObject({
  type: z.string(),
  url: z.string().optional(),
  headers: z.array(keyValueInputSchema).optional(),
});

export const packageSchema = z.looseObject({
  registryType: z.string().min(1),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().min(1),
  version: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: transportSchema.optional(),
  runtimeArguments: z.array(argumentSchema).optional(),
  packageArguments: z.array(argumentSchema).optional(),
  environmentVariables: z.array(keyValueInputSchema).optional(),
});

export const remoteSchema = z.looseObject({
  type: z.string(),
  url: z.string().min(1),
  headers: z.array(keyValueInputSchema).optional(),
  variables: z.record(z.string(), inputSchema).optional(),
});

export const serverJsonSchema = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  version: z.string().optional(),
  websiteUrl: z.string().optional(),
  repository: z
    .looseObject({ url: z.string().optional(), source: z.string().optional(), subfolder: z.string().optional() })
    .optional(),
  packages: z.array(z.unknown()).optional(),
  remotes: z.array(z.unknown()).optional(),
});

export type RegistryInput = z.infer<typeof inputSchema>;
export type KeyValueInput = z.infer<typeof keyValueInputSchema>;
export type RegistryArgument = z.infer<typeof argumentSchema>;
export type RegistryPackage = z.infer<typeof packageSchema>;
export type RegistryRemote = z.infer<typeof remoteSchema>;

/** One registry server, with only the packages and remotes we could read. */
export interface RegistryServer {
  name: string;
  title?: string;
  description?: string;
  version?: string;
  websiteUrl?: string;
  repositoryUrl?: string;
  packages: RegistryPackage[];
  remotes: RegistryRemote[];
  /** Why a package or remote of this server was left out (shown in the details). */
  skipped: string[];
  /** Registry-side status from `_meta` (e.g. "deprecated"), when given. */
  status?: string;
}

function issueText(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.join('.') || '(root)'}: ${i.message}` : 'invalid';
}

/**
 * A link the user may open, re-serialised; anything but `https:` (an `smb:` share, `file:`, a custom
 * scheme the OS hands to a program) is dropped here, so no caller can pass it to an opener.
 */
function httpsLink(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** Reads one `{server, _meta}` item of a list (or a bare server.json); `reason` when it is unusable. */
export function parseServerItem(item: unknown): { server?: RegistryServer; reason?: string } {
  const wrapped =
    item && typeof item === 'object' && 'server' in item ? (item as { server: unknown; _meta?: unknown }) : undefined;
  const raw = wrapped ? wrapped.server : item;
  const r = serverJsonSchema.safeParse(raw);
  if (!r.success) {
    const name =
      raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string'
        ? `"${(raw as { name: string }).name}"`
        : 'an entry';
    return { reason: `${name} is not a valid server.json (${issueText(r.error)})` };
  }
  const s = r.data;
  const skipped: string[] = [];
  const packages: RegistryPackage[] = [];
  for (const [i, p] of (s.packages ?? []).entries()) {
    const pr = packageSchema.safeParse(p);
    if (pr.success) packages.push(pr.data);
    else skipped.push(`package ${i + 1}: ${issueText(pr.error)}`);
  }
  const remotes: RegistryRemote[] = [];
  for (const [i, p] of (s.remotes ?? []).entries()) {
    const rr = remoteSchema.safeParse(p);
    if (rr.success) remotes.push(rr.data);
    else skipped.push(`remote ${i + 1}: ${issueText(rr.error)}`);
  }
  const meta = wrapped?._meta as Record<string, { status?: unknown } | undefined> | undefined;
  const official = meta?.['io.modelcontextprotocol.registry/official'];
  return {
    server: {
      name: s.name,
      title: s.title,
      description: s.description,
      version: s.version,
      websiteUrl: httpsLink(s.websiteUrl),
      repositoryUrl: httpsLink(s.repository?.url),
      packages,
      remotes,
      skipped,
      status: typeof official?.status === 'string' ? official.status : undefined,
    },
  };
}
