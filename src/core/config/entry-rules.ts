/**
 * What makes a well-shaped server entry (entry-schema.ts) one that can run, as one table: each rule
 * names the problem code, the JSON path it points at and the message a person acts on; the first
 * broken rule is the entry's problem. Then the entry becomes a `ServerConfig`, with a warning for
 * each field its kind of server ignores.
 */
import type { JsonPath } from './jsonc.js';
import type { ServerEntryInput } from './entry-schema.js';
import type { ConfigProblem, RemoteServerConfig, Scope, StdioServerConfig } from './types.js';

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

/** Where an entry is, for problems. */
export interface EntryLocationInfo {
  file: string;
  jsonPath: JsonPath;
  name: string;
  scope: Scope;
}

export function problem(
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

type EntryType = 'stdio' | 'sse' | 'http' | 'ws';

/** One way an entry can be wrong: `broken` says whether it is, given its resolved `type`. */
interface EntryRule {
  code: string;
  path?: JsonPath;
  broken(e: ServerEntryInput, type: EntryType | undefined): boolean;
  message(name: string, e: ServerEntryInput): string;
}

const hasCommand = (e: ServerEntryInput): boolean => e.command !== undefined;
const hasUrl = (e: ServerEntryInput): boolean => e.url !== undefined;

/** In order: the first broken rule is reported, alone. */
const ENTRY_RULES: readonly EntryRule[] = [
  {
    code: 'unknown-type',
    path: ['type'],
    broken: (e, type) => e.type !== undefined && type === undefined,
    message: (name, e) =>
      `Server "${name}" has unknown "type" ${JSON.stringify(e.type)}. Use "stdio" (with "command"), or "sse", "http" or "ws" (with "url"); "streamableHttp" is accepted as "http".`,
  },
  {
    code: 'command-and-url',
    broken: (e) => hasCommand(e) && hasUrl(e),
    message: (name) =>
      `Server "${name}" sets both "command" and "url". Keep "command" (with "args") for a local server the host starts, or "url" for a remote server — not both.`,
  },
  {
    code: 'no-command-or-url',
    broken: (e) => !hasCommand(e) && !hasUrl(e),
    message: (name) =>
      `Server "${name}" has neither "command" nor "url". Add "command" (and "args") to start a local server, or "url" to connect to a remote one.`,
  },
  {
    code: 'schema',
    path: ['type'],
    broken: (e, type) => type === 'stdio' && !hasCommand(e),
    message: (name) =>
      `Server "${name}" has "type": "stdio" but no "command". Add the command to run, or set "type" to "sse", "http" or "ws" for a URL.`,
  },
  {
    code: 'schema',
    path: ['type'],
    broken: (e, type) => type !== undefined && type !== 'stdio' && !hasUrl(e),
    message: (name, e) =>
      `Server "${name}" has "type": "${e.type}" but no "url". Add the server's URL, or remove "type" to run "command" locally.`,
  },
  {
    code: 'schema',
    path: ['command'],
    broken: (e) => hasCommand(e) && e.command!.trim() === '',
    message: (name) => `Server "${name}" has an empty "command". Set it to the program to run, e.g. "npx".`,
  },
  {
    code: 'schema',
    path: ['url'],
    broken: (e) => hasUrl(e) && e.url!.trim() === '',
    message: (name) =>
      `Server "${name}" has an empty "url". Set it to the server's address, e.g. "https://example.com/mcp".`,
  },
  {
    code: 'schema',
    path: ['oauth'],
    broken: (e) => e.oauth?.grantType === 'client_credentials' && !e.oauth.clientId,
    message: (name) =>
      `Server "${name}" uses "oauth.grantType": "client_credentials" without "oauth.clientId". Add the client ID registered with the authorization server (its secret or key is asked for at Authenticate).`,
  },
];

/** The entry's `type` spelled as the host names it; undefined when absent or unknown. */
export function entryType(e: ServerEntryInput): EntryType | undefined {
  return e.type !== undefined && Object.hasOwn(TYPE_ALIASES, e.type) ? TYPE_ALIASES[e.type] : undefined;
}

/** The problem of the first rule the entry breaks, or undefined. */
export function brokenRule(
  e: ServerEntryInput,
  type: EntryType | undefined,
  loc: EntryLocationInfo,
): ConfigProblem | undefined {
  const rule = ENTRY_RULES.find((r) => r.broken(e, type));
  return rule && problem(loc, rule.code, rule.message(loc.name, e), rule.path ?? []);
}

/** A warning for each field set that only the other kind of server uses. */
function ignoredFields(e: ServerEntryInput, loc: EntryLocationInfo, local: boolean): ConfigProblem[] {
  const fields = local ? REMOTE_ONLY : STDIO_ONLY;
  const applies = local ? 'remote servers (with "url")' : 'local servers (with "command")';
  return fields
    .filter((k) => e[k] !== undefined)
    .map((k) =>
      problem(
        loc,
        'ignored-field',
        `"${k}" of server "${loc.name}" is ignored: it only applies to ${applies}.`,
        [k],
        'warning',
      ),
    );
}

function commonOf(e: ServerEntryInput) {
  return {
    ...(e.timeout !== undefined ? { timeout: e.timeout } : {}),
    ...(e.toolTimeout !== undefined ? { toolTimeout: e.toolTimeout } : {}),
    ...(e.disabled !== undefined ? { disabled: e.disabled } : {}),
    ...(e.registry ? { registry: e.registry } : {}),
  };
}

function stdioConfig(e: ServerEntryInput): StdioServerConfig {
  const env = e.env ? Object.fromEntries(Object.entries(e.env).map(([k, v]) => [k, String(v)])) : undefined;
  return {
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
    ...commonOf(e),
  };
}

function remoteConfig(e: ServerEntryInput, type: EntryType | undefined): RemoteServerConfig {
  return {
    type: type === undefined || type === 'stdio' ? inferRemoteType(e.url!) : type,
    url: e.url!,
    ...(e.headers ? { headers: e.headers } : {}),
    ...(e.oauth ? { oauth: e.oauth } : {}),
    ...(e.headersHelper !== undefined ? { headersHelper: e.headersHelper } : {}),
    ...commonOf(e),
  };
}

/** The config of an entry that breaks no rule, and the warnings about fields it ignores. */
export function entryConfig(
  e: ServerEntryInput,
  type: EntryType | undefined,
  loc: EntryLocationInfo,
): { config: StdioServerConfig | RemoteServerConfig; warnings: ConfigProblem[] } {
  const local = hasCommand(e);
  return { config: local ? stdioConfig(e) : remoteConfig(e, type), warnings: ignoredFields(e, loc, local) };
}
