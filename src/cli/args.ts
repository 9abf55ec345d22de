/**
 * Command-line parsing for `mcp-host`. Global options may appear anywhere on the line; values
 * are given as `--opt VALUE` or `--opt=VALUE`; `--` ends option parsing.
 */
import { DISCOVERY_SOURCES, type DiscoverySource } from '../core/config/sources/discovery.js';
import { usageError } from './errors.js';

export const COMMANDS = [
  'list',
  'tools',
  'call',
  'resources',
  'read',
  'prompts',
  'prompt',
  'doctor',
  'auth',
  'logout',
  'serve',
  'search',
  'add',
  'add-json',
  'remove',
  'import',
  'complete',
  'approve',
] as const;
export type Command = (typeof COMMANDS)[number];

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
}

/** Positional arguments each command takes: [required, optional]. */
export const ARITY: Record<Command, { required: string[]; optional: string[] }> = {
  list: { required: [], optional: [] },
  tools: { required: [], optional: ['SERVER'] },
  call: { required: ['SERVER', 'TOOL'], optional: [] },
  resources: { required: [], optional: ['SERVER'] },
  read: { required: ['SERVER', 'URI'], optional: [] },
  prompts: { required: [], optional: ['SERVER'] },
  prompt: { required: ['SERVER', 'NAME'], optional: [] },
  doctor: { required: [], optional: [] },
  auth: { required: ['SERVER'], optional: [] },
  logout: { required: ['SERVER'], optional: [] },
  complete: { required: ['SERVER', 'ARG'], optional: ['VALUE'] },
  serve: { required: [], optional: [] },
  search: { required: [], optional: ['QUERY'] },
  add: { required: ['NAME'], optional: [] },
  'add-json': { required: ['NAME', 'JSON'], optional: [] },
  remove: { required: ['NAME'], optional: [] },
  import: { required: [], optional: [] },
  approve: { required: [], optional: ['NAME...'] },
};

/** Which commands accept which command options. */
export const COMMAND_OPTIONS: Record<string, readonly Command[]> = {
  '--args': ['call', 'prompt'],
  '--timeout': ['call', 'read', 'prompt'],
  '--from-registry': ['add'],
  '--url': ['add'],
  '--transport': ['add'],
  '--env': ['add'],
  '--header': ['add'],
  '--scope': ['add', 'add-json', 'remove', 'import'],
  '--from': ['import'],
  '--prompt': ['complete'],
  '--resource': ['complete'],
  '--context': ['complete'],
  '--exclude': ['serve'],
  '--profile': ['serve'],
  '--tools': ['serve'],
  '--max-result-tokens': ['serve'],
  '--own-servers': ['serve'],
  '--cursor': ['search'],
  '--all': ['search'],
};

export const VALUE_OPTIONS = new Set([
  '--workspace',
  '--config',
  '--args',
  '--timeout',
  '--user-settings',
  '--from-registry',
  '--url',
  '--transport',
  '--env',
  '--header',
  '--scope',
  '--from',
  '--prompt',
  '--resource',
  '--context',
  '--trace',
  '--exclude',
  '--profile',
  '--tools',
  '--max-result-tokens',
  '--cursor',
]);

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
export const FLAG_OPTIONS = new Set([
  '--json',
  '--verbose',
  '--help',
  '-h',
  '--version',
  '-V',
  '--allow-project-servers',
  '--idp',
  '--clear-list-cache',
  '--all',
  '--own-servers',
]);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = {
    positionals: [],
    configs: [],
    json: false,
    help: false,
    version: false,
    env: [],
    headers: [],
    exclude: [],
    allowProjectServers: false,
  };
  const seen: string[] = [];
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (rest || !a.startsWith('-') || a === '-') {
      out.positionals.push(a);
      if (rest) out.rest!.push(a);
      continue;
    }
    if (a === '--') {
      rest = true;
      out.rest = [];
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (FLAG_OPTIONS.has(name)) {
      if (eq > 0) throw usageError(`option ${name} takes no value`);
      if (name === '--json') out.json = true;
      else if (name === '--verbose') out.verbose = true;
      else if (name === '--idp') out.idp = true;
      else if (name === '--clear-list-cache') out.clearListCache = true;
      else if (name === '--help' || name === '-h') out.help = true;
      else if (name === '--allow-project-servers') {
        out.allowProjectServers = true;
        seen.push(name);
      } else if (name === '--all') {
        out.all = true;
        seen.push(name);
      } else if (name === '--own-servers') {
        out.ownServers = true;
        seen.push(name);
      } else out.version = true;
      continue;
    }
    if (!VALUE_OPTIONS.has(name)) throw usageError(`unknown option ${name}`, 'Run mcp-host --help for the options.');
    let value: string;
    if (eq > 0) value = a.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw usageError(`option ${name} needs a value`);
      value = argv[++i]!;
    }
    seen.push(name);
    switch (name) {
      case '--workspace':
        out.workspace = value;
        break;
      case '--config':
        out.configs.push(value);
        break;
      case '--args':
        out.args = value;
        break;
      case '--prompt':
        out.prompt = value;
        break;
      case '--resource':
        out.resource = value;
        break;
      case '--context': {
        const eqAt = value.indexOf('=');
        if (eqAt <= 0) throw usageError(`--context takes KEY=VALUE, got "${value}"`);
        (out.context ??= {})[value.slice(0, eqAt)] = value.slice(eqAt + 1);
        break;
      }
      case '--trace':
        out.trace = value;
        break;
      case '--timeout': {
        const n = Number(value);
        if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0)
          throw usageError(`--timeout must be a positive number of milliseconds, got "${value}"`);
        out.timeoutMs = n;
        break;
      }
      case '--user-settings':
        out.userSettings = value;
        break;
      case '--from-registry':
        out.fromRegistry = value;
        break;
      case '--cursor':
        if (value.trim() === '') throw usageError('--cursor needs the nextCursor a search printed');
        out.cursor = value;
        break;
      case '--url':
        out.url = value;
        break;
      case '--transport':
        out.transport = oneOf(name, value, ['http', 'sse', 'ws'] as const);
        break;
      case '--scope':
        out.scope = oneOf(name, value, ['project', 'workspace', 'user'] as const);
        break;
      case '--env':
        out.env.push(pair(name, value));
        break;
      case '--header':
        out.headers.push(pair(name, value));
        break;
      case '--profile':
        if (value.trim() === '') throw usageError('--profile needs a profile name');
        out.profile = value;
        break;
      case '--tools':
        out.tools = oneOf(name, value, ['all', 'search', 'auto'] as const);
        break;
      case '--max-result-tokens': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0)
          throw usageError(`--max-result-tokens needs a whole number ≥ 0, got "${value}"`);
        out.maxResultTokens = n;
        break;
      }
      case '--exclude':
        if (value.trim() === '') throw usageError('--exclude needs a server name');
        out.exclude.push(value);
        break;
      case '--from':
        out.from = oneOf(name, value, DISCOVERY_SOURCES);
        break;
    }
  }
  if (out.help || out.version) return out;
  const [command, ...positionals] = out.positionals;
  if (command === undefined) throw usageError('no command given', 'Run mcp-host --help for the commands.');
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw usageError(`unknown command "${command}"; commands: ${COMMANDS.join(', ')}`);
  }
  out.command = command as Command;
  out.positionals = positionals;
  const { required, optional } = ARITY[out.command];
  if (positionals.length < required.length) {
    throw usageError(
      `${command}: missing ${required.slice(positionals.length).join(' ')}`,
      `usage: mcp-host ${usageLine(out.command)}`,
    );
  }
  // `add NAME -- COMMAND ARGS…`: the words after `--` are the server's command line.
  // `approve [NAME…]`: any number of names.
  const variadic = out.command === 'add' ? (out.rest?.length ?? 0) : out.command === 'approve' ? positionals.length : 0;
  if (positionals.length > required.length + optional.length + variadic) {
    throw usageError(
      `${command}: unexpected argument "${positionals[required.length + optional.length]}"`,
      `usage: mcp-host ${usageLine(out.command)}`,
    );
  }
  for (const opt of seen) {
    const allowed = COMMAND_OPTIONS[opt];
    if (allowed && !allowed.includes(out.command))
      throw usageError(`${command} does not take ${opt}`, `usage: mcp-host ${usageLine(out.command)}`);
  }
  if (out.all && out.cursor !== undefined)
    throw usageError('search: give --all or --cursor, not both', `usage: mcp-host ${usageLine(out.command)}`);
  if (out.command === 'complete' && (out.prompt === undefined) === (out.resource === undefined)) {
    throw usageError(
      'complete: give exactly one of --prompt NAME or --resource URI_TEMPLATE',
      `usage: mcp-host ${usageLine(out.command)}`,
    );
  }
  return out;
}

const OPTION_VALUE: Record<string, string> = {
  '--args': 'JSON',
  '--timeout': 'MS',
  '--from-registry': 'ID',
  '--url': 'URL',
  '--transport': 'http|sse|ws',
  '--env': 'K=V',
  '--header': 'K=V',
  '--scope': 'project|workspace|user',
  '--from': DISCOVERY_SOURCES.join('|'),
  '--prompt': 'NAME',
  '--resource': 'URI_TEMPLATE',
  '--context': 'K=V',
  '--exclude': 'NAME',
  '--profile': 'NAME',
  '--tools': 'all|search|auto',
  '--max-result-tokens': 'N',
  '--cursor': 'CURSOR',
};

export function usageLine(c: Command): string {
  const { required, optional } = ARITY[c];
  const opts = Object.entries(COMMAND_OPTIONS)
    .filter(([, cmds]) => cmds.includes(c))
    .map(([o]) => (FLAG_OPTIONS.has(o) ? `[${o}]` : `[${o} ${OPTION_VALUE[o] ?? 'VALUE'}]`));
  return [c, ...required, ...optional.map((o) => `[${o}]`), ...opts].join(' ');
}

export const HELP = `mcp-host: a headless host for Model Context Protocol servers

usage: mcp-host <command> [arguments] [options]

commands:
  list                              servers, their state and counts
  tools [SERVER]                    tools (all servers, or one)
  call SERVER TOOL [--args JSON] [--timeout MS]
                                    call a tool; prints its text output
  resources [SERVER]                resources and resource templates
  read SERVER URI [--timeout MS]    read a resource (binary contents are saved to a file)
  prompts [SERVER]                  prompts
  prompt SERVER NAME [--args JSON] [--timeout MS]
                                    get a prompt with arguments
  doctor                            check every server and say what to fix
  auth SERVER                       sign in to a remote server (OAuth in your browser)
  logout SERVER                     forget the server's stored tokens
  auth --idp | logout --idp         sign in to (or out of) the company identity provider (enterpriseIdp)
  complete SERVER (--prompt NAME | --resource URI_TEMPLATE) ARG [VALUE] [--context K=V]...
                                    the server's completions for a prompt argument or
                                    a resource-template variable
  serve [--exclude NAME]... [--allow-project-servers]
                                    the gateway over stdio: one MCP server with every server's
                                    tools (<server>__<tool>), prompts and resources, for agents;
                                    --exclude leaves a server out (repeatable); the folder's
                                    .mcp.json / .vscode/mcp.json servers start only with
                                    --allow-project-servers (an agent may launch serve anywhere)
        [--profile NAME]            only a profile's servers and tools (mcpHost.gateway.profiles)
        [--tools all|search|auto]   every tool listed, tool search mode (search_tools, get_tool_schema,
                                    call_tool), or the settings' choice (default: auto, search mode
                                    past mcpHost.gateway.toolSearchMaxTools tools)
        [--max-result-tokens N]     results past N tokens reach the agent cut, the rest readable as
                                    mcp-host-result:// resources (default 25000; 0: no limit)
        [--own-servers]             start this serve's own servers; by default the sessions in one
                                    folder share one gateway and one process per server, which
                                    ends MCP_HOST_SERVE_GRACE_MS (30000) after its last session
  search [QUERY] [--all | --cursor CURSOR]
                                    search the MCP registry (mcpHost.registry.url / MCP_HOST_REGISTRY_URL):
                                    the first 30, every page (--all), or the page a nextCursor names
  add NAME --from-registry ID       install a registry server (its npm/pypi/oci package, else its remote)
  add NAME -- COMMAND [ARGS...]     add a local (stdio) server
  add NAME --url URL [--transport http|sse|ws]
                                    add a remote server
      with add: [--scope project|workspace|user] [--env K=V]... [--header K=V]...
  add-json NAME JSON [--scope S]    add a server entry given as JSON
  remove NAME [--scope S]           remove a server entry (comments and other entries are kept)
  import --from APP [--scope S]     copy servers from claude-desktop, claude-code, cursor, windsurf,
                                    copilot-cli, gemini-cli or codex
                                    (default scope: user; name clashes are reported and skipped)
  approve [NAME...]                 approve the folder's own servers (.mcp.json, .vscode/mcp.json):
                                    shows what each would run, then lets them start here and in the
                                    editor until their definition changes (no NAME: every one waiting)

options (anywhere on the line):
  --workspace DIR    folder whose .mcp.json and .vscode/mcp.json are used (default: current folder)
  --config FILE      extra .mcp.json-format file (repeatable)
  --user-settings FILE  the editor's user settings.json (mcpHost.servers; the "user" scope)
  --json             machine-readable output
  --verbose          print the servers' log messages (notifications/message) on stderr
  --clear-list-cache forget the servers' tool, resource and prompt lists kept from earlier runs
  --trace FILE       write every JSON-RPC message of the run to FILE as NDJSON (secrets redacted)
  --allow-project-servers
                     start the folder's .mcp.json / .vscode/mcp.json servers without approval (this run)
  --help, --version

the folder's own servers (.mcp.json, .vscode/mcp.json) start only once approved: on a terminal the
CLI asks first, listing what each would run; without one (an agent, a pipe) it starts none of them
and list/doctor say so. Approvals are shared with the editor. Your user settings, --config files
and the managed file's servers start without asking: you or your administrator wrote them.

exit codes: 0 ok, 1 the tool returned an error, 2 usage, argument or config error,
            3 connection failure or timeout

servers are offered the workspace folder as their root; a server's questions (elicitation) are
asked in the terminal, and declined when stdin is not a terminal. Sampling is not offered.

environment: MCP_TIMEOUT (connect ms), MCP_TOOL_TIMEOUT (call ms), MCP_HOST_LOG (error|warn|info|debug),
             MCP_HOST_INPUT_<ID> (value for \${input:id}), MCP_HOST_BLOB_DIR (where binary contents go),
             MCP_HOST_REGISTRY_URL (registry), MCP_HOST_USER_SETTINGS (user settings.json),
             MCP_HOST_ALLOW_PROJECT_SERVERS=1 (as --allow-project-servers),
             MCP_HOST_SERVE_SHARE=0 (as serve --own-servers), MCP_HOST_SERVE_GRACE_MS (shared gateway's grace)
`;
