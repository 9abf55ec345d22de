/**
 * Every command and option of `mcp-host`, once: what a command takes, what an option takes, which
 * commands accept it, where its value goes, and the lines `--help` shows. The parser (args.ts),
 * the help text (help.ts) and docs/cli-options.md (scripts/gen-docs.mjs) are all read from here,
 * so an option cannot be parsed without being documented, or documented without being parsed.
 */
import { DISCOVERY_SOURCES, type DiscoverySource } from '../core/config/index.js';
import { usageError } from './errors.js';
import type { Command } from './commands-table.js';

export interface ParsedArgs {
  command?: Command;
  positionals: string[];
  workspace?: string;
  configs: string[];
  json: boolean;
  help: boolean;
  version: boolean;
  /** Raw `--args` JSON text. */
  args?: string;
  /** `--timeout` in ms. */
  timeoutMs?: number;
  /** `--verbose`: print the servers' log messages on stderr. */
  verbose?: boolean;
  /** `auth --idp` / `logout --idp`: the company identity provider instead of one server. */
  idp?: boolean;
  /** `complete`: `--prompt NAME` or `--resource URI_TEMPLATE`, and `--context K=V` (repeatable). */
  prompt?: string;
  resource?: string;
  context?: Record<string, string>;
  /** `--trace FILE`: NDJSON protocol trace of the whole run. */
  trace?: string;
  /** Words after `--` (`add NAME -- COMMAND ARGS…`); also part of `positionals`. */
  rest?: string[];
  /** `--user-settings`: the editor's user settings.json. */
  userSettings?: string;
  fromRegistry?: string;
  /** `search --cursor`: the page after the one that printed this `nextCursor`. */
  cursor?: string;
  /** `search --all`: every page. */
  all?: boolean;
  url?: string;
  transport?: 'http' | 'sse' | 'ws';
  scope?: 'project' | 'workspace' | 'user';
  /** `--env K=V`, repeatable, in order. */
  env: [string, string][];
  /** `--header K=V`, repeatable, in order. */
  headers: [string, string][];
  /** `serve --exclude NAME` (repeatable): servers the gateway never offers, like `mcpHost.gateway.exclude`. */
  exclude: string[];
  /**
   * `--allow-project-servers` (any command; also MCP_HOST_ALLOW_PROJECT_SERVERS=1): start the folder's
   * `.mcp.json` / `.vscode/mcp.json` servers without approval, this run only.
   */
  allowProjectServers: boolean;
  /** `serve --profile NAME`: one of the gateway profiles (`mcpHost.gateway.profiles`). */
  profile?: string;
  /** `serve --tools all|search|auto`: the full tool list, tool search mode, or the settings' choice. */
  tools?: 'all' | 'search' | 'auto';
  /** `serve --max-result-tokens N`: cut results past N tokens (0: never), like `mcpHost.gateway.maxResultTokens`. */
  maxResultTokens?: number;
  /** `--clear-list-cache`: forget the servers' lists kept from earlier runs (global). */
  clearListCache?: boolean;
  /** `serve --own-servers` (also MCP_HOST_SERVE_SHARE=0): this serve starts its own servers instead of sharing (serve-front.ts). */
  ownServers?: boolean;
  /** `import --from APP`. */
  from?: DiscoverySource;
  /** `serve --http`: the team gateway over Streamable HTTP (commands/serve-http.ts), with its listening options. */
  http?: boolean;
  host?: string;
  port?: number;
  tlsCert?: string;
  tlsKey?: string;
  allowRemote?: boolean;
  insecureHttp?: boolean;
}

export { COMMAND_TABLE, type Command, type CommandSpec } from './commands-table.js';

/**
 * An option: `value` names what it takes (none: a flag), `commands` the commands that accept it
 * (none: every command), `help` its line under "options" in `--help` (command options are shown
 * in their commands' rows instead), `set` where its value goes.
 */
export interface OptionSpec {
  name: string;
  alias?: string;
  value?: string;
  commands?: readonly Command[];
  help?: string;
  set(out: ParsedArgs, value: string): void;
}

function pair(opt: string, value: string): [string, string] {
  const eq = value.indexOf('=');
  if (eq <= 0) throw usageError(`${opt} needs KEY=VALUE, got "${value}"`);
  return [value.slice(0, eq), value.slice(eq + 1)];
}

function oneOf<T extends string>(opt: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw usageError(`${opt} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

function nonEmpty(value: string, message: string): string {
  if (value.trim() === '') throw usageError(message);
  return value;
}

/** Command options first, in the order usage lines show them; then the global ones, in `--help` order. */
export const OPTION_TABLE: readonly OptionSpec[] = [
  { name: '--args', value: 'JSON', commands: ['call', 'prompt'], set: (o, v) => (o.args = v) },
  {
    name: '--timeout',
    value: 'MS',
    commands: ['call', 'read', 'prompt'],
    set: (o, v) => {
      const n = Number(v);
      if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n <= 0)
        throw usageError(`--timeout must be a positive number of milliseconds, got "${v}"`);
      o.timeoutMs = n;
    },
  },
  { name: '--from-registry', value: 'ID', commands: ['add'], set: (o, v) => (o.fromRegistry = v) },
  { name: '--url', value: 'URL', commands: ['add'], set: (o, v) => (o.url = v) },
  {
    name: '--transport',
    value: 'http|sse|ws',
    commands: ['add'],
    set: (o, v) => (o.transport = oneOf('--transport', v, ['http', 'sse', 'ws'] as const)),
  },
  { name: '--env', value: 'K=V', commands: ['add'], set: (o, v) => o.env.push(pair('--env', v)) },
  { name: '--header', value: 'K=V', commands: ['add'], set: (o, v) => o.headers.push(pair('--header', v)) },
  {
    name: '--scope',
    value: 'project|workspace|user',
    commands: ['add', 'add-json', 'remove', 'import'],
    set: (o, v) => (o.scope = oneOf('--scope', v, ['project', 'workspace', 'user'] as const)),
  },
  {
    name: '--from',
    value: DISCOVERY_SOURCES.join('|'),
    commands: ['import'],
    set: (o, v) => (o.from = oneOf('--from', v, DISCOVERY_SOURCES)),
  },
  { name: '--prompt', value: 'NAME', commands: ['complete'], set: (o, v) => (o.prompt = v) },
  { name: '--resource', value: 'URI_TEMPLATE', commands: ['complete'], set: (o, v) => (o.resource = v) },
  {
    name: '--context',
    value: 'K=V',
    commands: ['complete'],
    set: (o, v) => {
      const eqAt = v.indexOf('=');
      if (eqAt <= 0) throw usageError(`--context takes KEY=VALUE, got "${v}"`);
      (o.context ??= {})[v.slice(0, eqAt)] = v.slice(eqAt + 1);
    },
  },
  {
    name: '--exclude',
    value: 'NAME',
    commands: ['serve'],
    set: (o, v) => o.exclude.push(nonEmpty(v, '--exclude needs a server name')),
  },
  {
    name: '--profile',
    value: 'NAME',
    commands: ['serve'],
    set: (o, v) => (o.profile = nonEmpty(v, '--profile needs a profile name')),
  },
  {
    name: '--tools',
    value: 'all|search|auto',
    commands: ['serve'],
    set: (o, v) => (o.tools = oneOf('--tools', v, ['all', 'search', 'auto'] as const)),
  },
  {
    name: '--max-result-tokens',
    value: 'N',
    commands: ['serve'],
    set: (o, v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw usageError(`--max-result-tokens needs a whole number ≥ 0, got "${v}"`);
      o.maxResultTokens = n;
    },
  },
  { name: '--own-servers', commands: ['serve'], set: (o) => (o.ownServers = true) },
  { name: '--http', commands: ['serve'], set: (o) => (o.http = true) },
  {
    name: '--host',
    value: 'ADDRESS',
    commands: ['serve'],
    set: (o, v) => (o.host = nonEmpty(v, '--host needs an address')),
  },
  {
    name: '--port',
    value: 'N',
    commands: ['serve'],
    set: (o, v) => {
      const n = Number(v);
      if (!/^\d+$/.test(v.trim()) || n > 65535) throw usageError(`--port needs a port 0-65535, got "${v}"`);
      o.port = n;
    },
  },
  { name: '--tls-cert', value: 'FILE', commands: ['serve'], set: (o, v) => (o.tlsCert = v) },
  { name: '--tls-key', value: 'FILE', commands: ['serve'], set: (o, v) => (o.tlsKey = v) },
  { name: '--allow-remote', commands: ['serve'], set: (o) => (o.allowRemote = true) },
  { name: '--insecure-http', commands: ['serve'], set: (o) => (o.insecureHttp = true) },
  {
    name: '--cursor',
    value: 'CURSOR',
    commands: ['search'],
    set: (o, v) => (o.cursor = nonEmpty(v, '--cursor needs the nextCursor a search printed')),
  },
  { name: '--all', commands: ['search'], set: (o) => (o.all = true) },
  {
    name: '--workspace',
    value: 'DIR',
    help: 'folder whose .mcp.json and .vscode/mcp.json are used (default: current folder)',
    set: (o, v) => (o.workspace = v),
  },
  {
    name: '--config',
    value: 'FILE',
    help: 'extra .mcp.json-format file (repeatable)',
    set: (o, v) => o.configs.push(v),
  },
  {
    name: '--user-settings',
    value: 'FILE',
    help: 'the editor\'s user settings.json (mcpHost.servers; the "user" scope)',
    set: (o, v) => (o.userSettings = v),
  },
  { name: '--json', help: 'machine-readable output', set: (o) => (o.json = true) },
  {
    name: '--verbose',
    help: "print the servers' log messages (notifications/message) on stderr",
    set: (o) => (o.verbose = true),
  },
  {
    name: '--clear-list-cache',
    help: "forget the servers' tool, resource and prompt lists kept from earlier runs",
    set: (o) => (o.clearListCache = true),
  },
  {
    name: '--trace',
    value: 'FILE',
    help: 'write every JSON-RPC message of the run to FILE as NDJSON (secrets redacted)',
    set: (o, v) => (o.trace = v),
  },
  {
    name: '--allow-project-servers',
    help: "start the folder's .mcp.json / .vscode/mcp.json servers without approval (this run)",
    set: (o) => (o.allowProjectServers = true),
  },
  // `auth --idp` / `logout --idp`: shown in their commands' rows.
  { name: '--idp', set: (o) => (o.idp = true) },
  // An empty help: listed together on the last line of the options.
  { name: '--help', alias: '-h', help: '', set: (o) => (o.help = true) },
  { name: '--version', alias: '-V', help: '', set: (o) => (o.version = true) },
];
