/**
 * The one schema for a server entry, shared by every config source. zod checks the shape; this
 * file turns its issues into messages a person can act on and normalises the entry into a
 * `ServerConfig` whose strings are still unexpanded (variables are expanded later, per source).
 */
import { z } from 'zod';
import { describeValue, formatJsonPath, type JsonPath } from './jsonc.js';
import { DEV_DOCS, ENTRY_DOCS, OAUTH_DOCS, OAUTH_OBJECT_DOCS, REGISTRY_DOCS, SERVER_DOCS } from './schema-docs.js';
import type { ConfigProblem, RemoteServerConfig, Scope, StdioServerConfig } from './types.js';
import { sandboxSettingsSchema } from './sandbox-settings.js';

/** Accepted spellings of `type`; `streamableHttp` and friends are what other apps write for `http`. */
const TYPE_ALIASES: Record<string, 'stdio' | 'sse' | 'http' | 'ws'> = {
  stdio: 'stdio',
  sse: 'sse',
  http: 'http',
  streamableHttp: 'http',
  'streamable-http': 'http',
  ws: 'ws',
};

const STDIO_ONLY = ['args', 'env', 'cwd', 'envFile', 'dev', 'sandboxEnabled', 'sandbox'] as const;
const REMOTE_ONLY = ['headers', 'oauth', 'headersHelper'] as const;

const oauthSchema = z
  .object({
    clientId: z.string().min(1, { error: 'must not be empty' }).meta(OAUTH_DOCS.clientId).optional(),
    callbackPort: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be a port between 1 and 65535' })
      .max(65535, { error: 'must be a port between 1 and 65535' })
      .meta(OAUTH_DOCS.callbackPort)
      .optional(),
    authServerMetadataUrl: z
      .string()
      .refine((u) => isHttpsUrl(u), { error: 'must be an https:// URL (metadata is only fetched over HTTPS)' })
      .meta(OAUTH_DOCS.authServerMetadataUrl)
      .optional(),
    scopes: z.array(z.string()).meta(OAUTH_DOCS.scopes).optional(),
    // Machine-to-machine sign-in (SEP-1046): no browser, the client authenticates itself.
    grantType: z
      .enum(['authorization_code', 'client_credentials', 'jwt-bearer'], {
        error: 'must be "authorization_code", "client_credentials" or "jwt-bearer"',
      })
      .meta(OAUTH_DOCS.grantType)
      .optional(),
    tokenEndpointAuthMethod: z
      .enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt'], {
        error: 'must be "client_secret_basic", "client_secret_post" or "private_key_jwt"',
      })
      .meta(OAUTH_DOCS.tokenEndpointAuthMethod)
      .optional(),
    signingAlgorithm: z.string().min(1, { error: 'must not be empty' }).meta(OAUTH_DOCS.signingAlgorithm).optional(),
    issuer: z
      .string()
      .refine((u) => isUrl(u), { error: "must be the authorization server's issuer URL" })
      .meta(OAUTH_DOCS.issuer)
      .optional(),
    clientMetadataUrl: z
      .string()
      .refine((u) => isHttpsUrl(u) && new URL(u).pathname !== '/', {
        error: 'must be an https:// URL with a path (where the client ID metadata document is published)',
      })
      .meta(OAUTH_DOCS.clientMetadataUrl)
      .optional(),
  })
  .meta(OAUTH_OBJECT_DOCS);

/** `dev` as VS Code's mcp.json writes it: restart on file changes, start under the debugger. */
const devSchema = z
  .object({
    watch: z
      .union([
        z.string().min(1, { error: 'must not be empty' }),
        z.array(z.string().min(1, { error: 'must not be empty' })),
      ])
      .meta(DEV_DOCS.watch)
      .optional(),
    debug: z
      .object({ type: z.enum(['node', 'python'], { error: 'must be "node" or "python"' }).meta(DEV_DOCS.debugType) })
      .meta(DEV_DOCS.debug)
      .optional(),
  })
  .meta(DEV_DOCS.object);

/**
 * Shape of one server entry as written in a file (before type resolution and expansion).
 * Unknown keys are ignored: other apps add their own (`autoApprove`, `alwaysAllow`, ...).
 */
export const serverEntrySchema = z
  .object({
    // Any string is accepted here (aliases and typos get their own messages below); the docs list the valid ones.
    type: z.string().meta(ENTRY_DOCS.type).optional(),
    command: z.string().meta(ENTRY_DOCS.command).optional(),
    args: z.array(z.string()).meta(ENTRY_DOCS.args).optional(),
    // Numbers and booleans are common in hand-written env blocks ("PORT": 3000); they become strings.
    env: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .meta(ENTRY_DOCS.env)
      .optional(),
    cwd: z.string().meta(ENTRY_DOCS.cwd).optional(),
    envFile: z.string().meta(ENTRY_DOCS.envFile).optional(),
    url: z.string().meta(ENTRY_DOCS.url).optional(),
    headers: z.record(z.string(), z.string()).meta(ENTRY_DOCS.headers).optional(),
    oauth: oauthSchema.optional(),
    timeout: z
      .number()
      .positive({ error: 'must be a positive number of milliseconds' })
      .meta(ENTRY_DOCS.timeout)
      .optional(),
    toolTimeout: z
      .number()
      .positive({ error: 'must be a positive number of milliseconds' })
      .meta(ENTRY_DOCS.toolTimeout)
      .optional(),
    disabled: z.boolean().meta(ENTRY_DOCS.disabled).optional(),
    dev: devSchema.optional(),
    headersHelper: z.string().min(1, { error: 'must not be empty' }).meta(ENTRY_DOCS.headersHelper).optional(),
    registry: z
      .object({
        id: z.string().min(1, { error: 'must not be empty' }).meta(REGISTRY_DOCS.id),
        version: z.string().meta(REGISTRY_DOCS.version).optional(),
      })
      .meta(REGISTRY_DOCS.object)
      .optional(),
    sandboxEnabled: z.boolean().meta(ENTRY_DOCS.sandboxEnabled).optional(),
    sandbox: sandboxSettingsSchema.optional(),
  })
  .meta(SERVER_DOCS);

export type ServerEntryInput = z.infer<typeof serverEntrySchema>;

/** The keys the schema knows; media/mcp-server.schema.json must describe the same set. */
export const SERVER_ENTRY_KEYS = Object.keys(serverEntrySchema.shape);

function isUrl(u: string): boolean {
  return URL.canParse(u);
}

function isHttpsUrl(u: string): boolean {
  try {
    return new URL(u).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Where an entry is, for problems. */
export interface EntryLocationInfo {
  file: string;
  jsonPath: JsonPath;
  name: string;
  scope: Scope;
}

export type ValidatedEntry =
  | { ok: true; config: StdioServerConfig | RemoteServerConfig; warnings: ConfigProblem[] }
  | { ok: false; problems: ConfigProblem[] };

function expectedPhrase(expected: string): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'an array';
    case 'object':
    case 'record':
      return 'an object';
    default:
      return expected;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function issueMessage(issue: z.core.$ZodIssue, raw: unknown, name: string): string {
  const where = `"${formatJsonPath(issue.path as JsonPath)}" of server "${name}"`;
  const actual = valueAt(raw, issue.path);
  if (issue.code === 'invalid_type') {
    const expected = expectedPhrase(String(issue.expected));
    return `${where} must be ${expected}, but it is ${describeValue(actual)}.`;
  }
  if (issue.code === 'invalid_union') {
    if (issue.path[0] === 'dev')
      return `${where} must be a glob string or a list of glob strings, but it is ${describeValue(actual)}.`;
    // The other union is an env value.
    return `${where} must be a string (or a number or boolean), but it is ${describeValue(actual)}.`;
  }
  return `${where} ${issue.message}.`;
}

function problem(
  loc: EntryLocationInfo,
  code: string,
  message: string,
  sub: JsonPath = [],
  severity: 'error' | 'warning' = 'error',
): ConfigProblem {
  return {
    severity,
    code,
    message,
    file: loc.file,
    jsonPath: [...loc.jsonPath, ...sub],
    server: loc.name,
    scope: loc.scope,
  };
}

/** Infers a remote transport when `type` is omitted: ws(s):// is WebSocket, a path ending in /sse is SSE, else Streamable HTTP. */
export function inferRemoteType(url: string): 'sse' | 'http' | 'ws' {
  if (/^wss?:/i.test(url)) return 'ws';
  const path = url.split(/[?#]/)[0];
  return /\/sse\/?$/i.test(path) ? 'sse' : 'http';
}

/**
 * Validates one entry and normalises it to a `ServerConfig` (strings still unexpanded).
 * Every problem carries the file, the JSON path of the offending field and what to do.
 */
export function validateServerEntry(raw: unknown, loc: EntryLocationInfo): ValidatedEntry {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      ok: false,
      problems: [
        problem(
          loc,
          'schema',
          `Server "${loc.name}" must be an object like { "command": "..." } or { "url": "..." }, but it is ${describeValue(raw)}.`,
        ),
      ],
    };
  }
  const parsed = serverEntrySchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) =>
        problem(loc, 'schema', issueMessage(i, raw, loc.name), i.path as JsonPath),
      ),
    };
  }
  const e = parsed.data;
  const warnings: ConfigProblem[] = [];
  const hasCommand = e.command !== undefined;
  const hasUrl = e.url !== undefined;

  let type: 'stdio' | 'sse' | 'http' | 'ws' | undefined;
  if (e.type !== undefined) {
    type = Object.hasOwn(TYPE_ALIASES, e.type) ? TYPE_ALIASES[e.type] : undefined;
    if (!type) {
      return {
        ok: false,
        problems: [
          problem(
            loc,
            'unknown-type',
            `Server "${loc.name}" has unknown "type" ${JSON.stringify(e.type)}. Use "stdio" (with "command"), or "sse", "http" or "ws" (with "url"); "streamableHttp" is accepted as "http".`,
            ['type'],
          ),
        ],
      };
    }
  }
  if (hasCommand && hasUrl) {
    return {
      ok: false,
      problems: [
        problem(
          loc,
          'command-and-url',
          `Server "${loc.name}" sets both "command" and "url". Keep "command" (with "args") for a local server the host starts, or "url" for a remote server — not both.`,
        ),
      ],
    };
  }
  if (!hasCommand && !hasUrl) {
    return {
      ok: false,
      problems: [
        problem(
          loc,
          'no-command-or-url',
          `Server "${loc.name}" has neither "command" nor "url". Add "command" (and "args") to start a local server, or "url" to connect to a remote one.`,
        ),
      ],
    };
  }
  if (type === 'stdio' && !hasCommand) {
    return {
      ok: false,
      problems: [
        problem(
          loc,
          'schema',
          `Server "${loc.name}" has "type": "stdio" but no "command". Add the command to run, or set "type" to "sse", "http" or "ws" for a URL.`,
          ['type'],
        ),
      ],
    };
  }
  if (type !== undefined && type !== 'stdio' && !hasUrl) {
    return {
      ok: false,
      problems: [
        problem(
          loc,
          'schema',
          `Server "${loc.name}" has "type": "${e.type}" but no "url". Add the server's URL, or remove "type" to run "command" locally.`,
          ['type'],
        ),
      ],
    };
  }
  if (hasCommand && e.command!.trim() === '') {
    return {
      ok: false,
      problems: [
        problem(
          loc,
          'schema',
          `Server "${loc.name}" has an empty "command". Set it to the program to run, e.g. "npx".`,
          ['command'],
        ),
      ],
    };
  }
  if (hasUrl && e.url!.trim() === '') {
    return {
      ok: false,
      problems: [
        problem(
          loc,
          'schema',
          `Server "${loc.name}" has an empty "url". Set it to the server's address, e.g. "https://example.com/mcp".`,
          ['url'],
        ),
      ],
    };
  }

  if (e.oauth?.grantType === 'client_credentials' && !e.oauth.clientId) {
    return {
      ok: false,
      problems: [
        problem(
          loc,
          'schema',
          `Server "${loc.name}" uses "oauth.grantType": "client_credentials" without "oauth.clientId". Add the client ID registered with the authorization server (its secret or key is asked for at Authenticate).`,
          ['oauth'],
        ),
      ],
    };
  }
  const common = {
    ...(e.timeout !== undefined ? { timeout: e.timeout } : {}),
    ...(e.toolTimeout !== undefined ? { toolTimeout: e.toolTimeout } : {}),
    ...(e.disabled !== undefined ? { disabled: e.disabled } : {}),
    ...(e.registry ? { registry: e.registry } : {}),
  };
  if (hasCommand) {
    for (const k of REMOTE_ONLY) {
      if (e[k] !== undefined) {
        warnings.push(
          problem(
            loc,
            'ignored-field',
            `"${k}" of server "${loc.name}" is ignored: it only applies to remote servers (with "url").`,
            [k],
            'warning',
          ),
        );
      }
    }
    const env = e.env ? Object.fromEntries(Object.entries(e.env).map(([k, v]) => [k, String(v)])) : undefined;
    const config: StdioServerConfig = {
      type: 'stdio',
      command: e.command!,
      args: e.args ?? [],
      ...(env ? { env } : {}),
      ...(e.cwd !== undefined ? { cwd: e.cwd } : {}),
      ...(e.envFile !== undefined ? { envFile: e.envFile } : {}),
      ...(e.dev
        ? {
            dev: {
              ...(e.dev.watch !== undefined
                ? { watch: typeof e.dev.watch === 'string' ? [e.dev.watch] : e.dev.watch }
                : {}),
              ...(e.dev.debug ? { debug: e.dev.debug } : {}),
            },
          }
        : {}),
      ...(e.sandboxEnabled !== undefined ? { sandboxEnabled: e.sandboxEnabled } : {}),
      ...(e.sandbox !== undefined ? { sandbox: e.sandbox } : {}),
      ...common,
    };
    return { ok: true, config, warnings };
  }
  for (const k of STDIO_ONLY) {
    if (e[k] !== undefined) {
      warnings.push(
        problem(
          loc,
          'ignored-field',
          `"${k}" of server "${loc.name}" is ignored: it only applies to local servers (with "command").`,
          [k],
          'warning',
        ),
      );
    }
  }
  const config: RemoteServerConfig = {
    type: type === undefined || type === 'stdio' ? inferRemoteType(e.url!) : type,
    url: e.url!,
    ...(e.headers ? { headers: e.headers } : {}),
    ...(e.oauth ? { oauth: e.oauth } : {}),
    ...(e.headersHelper !== undefined ? { headersHelper: e.headersHelper } : {}),
    ...common,
  };
  return { ok: true, config, warnings };
}

/**
 * Checks a remote URL after variables are expanded: it must parse and its scheme must fit the
 * transport. Returns a message, or undefined when fine.
 */
export function checkRemoteUrl(type: 'sse' | 'http' | 'ws', url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"url" ${JSON.stringify(url)} is not a valid URL. Write the full address, e.g. "https://example.com/mcp".`;
  }
  const ok =
    type === 'ws' ? u.protocol === 'ws:' || u.protocol === 'wss:' : u.protocol === 'http:' || u.protocol === 'https:';
  if (!ok) {
    const want = type === 'ws' ? 'ws:// or wss://' : 'http:// or https://';
    return `"url" must start with ${want} for a "${type}" server, but it is ${u.protocol}//… Fix the URL or the "type".`;
  }
  return undefined;
}
