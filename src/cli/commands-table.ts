/**
 * Every command of `mcp-host`: what it takes and its rows in `--help`. The options are in
 * options.ts; the parser, `--help` and docs/cli-options.md read both.
 */

/**
 * A command: its positional arguments ([required, optional]) and its rows in `--help`, each
 * `[left column, text lines…]`; an empty left column is the command's usage line (`usageLine`).
 */
export interface CommandSpec {
  required: string[];
  optional: string[];
  help: string[][];
}

/** In `--help` order. */
export const COMMAND_TABLE = {
  list: { required: [], optional: [], help: [['list', 'servers, their state and counts']] },
  tools: { required: [], optional: ['SERVER'], help: [['tools [SERVER]', 'tools (all servers, or one)']] },
  call: { required: ['SERVER', 'TOOL'], optional: [], help: [['', 'call a tool; prints its text output']] },
  resources: {
    required: [],
    optional: ['SERVER'],
    help: [['resources [SERVER]', 'resources and resource templates']],
  },
  read: {
    required: ['SERVER', 'URI'],
    optional: [],
    help: [['', 'read a resource (binary contents are saved to a file)']],
  },
  prompts: { required: [], optional: ['SERVER'], help: [['prompts [SERVER]', 'prompts']] },
  prompt: { required: ['SERVER', 'NAME'], optional: [], help: [['', 'get a prompt with arguments']] },
  doctor: { required: [], optional: [], help: [['doctor', 'check every server and say what to fix']] },
  auth: {
    required: ['SERVER'],
    optional: [],
    help: [['auth SERVER', 'sign in to a remote server (OAuth in your browser)']],
  },
  logout: {
    required: ['SERVER'],
    optional: [],
    help: [
      ['logout SERVER', "forget the server's stored tokens"],
      ['auth --idp | logout --idp', 'sign in to (or out of) the company identity provider (enterpriseIdp)'],
    ],
  },
  complete: {
    required: ['SERVER', 'ARG'],
    optional: ['VALUE'],
    help: [
      [
        'complete SERVER (--prompt NAME | --resource URI_TEMPLATE) ARG [VALUE] [--context K=V]...',
        "the server's completions for a prompt argument or",
        'a resource-template variable',
      ],
    ],
  },
  serve: {
    required: [],
    optional: [],
    help: [
      [
        'serve [--exclude NAME]... [--allow-project-servers]',
        "the gateway over stdio: one MCP server with every server's",
        'tools (<server>__<tool>), prompts and resources, for agents;',
        "--exclude leaves a server out (repeatable); the folder's",
        '.mcp.json / .vscode/mcp.json servers start only with',
        '--allow-project-servers (an agent may launch serve anywhere)',
      ],
      ['      [--profile NAME]', "only a profile's servers and tools (mcpHost.gateway.profiles)"],
      [
        '      [--tools all|search|auto]',
        'every tool listed, tool search mode (search_tools, get_tool_schema,',
        "call_tool), or the settings' choice (default: auto, search mode",
        'past mcpHost.gateway.toolSearchMaxTools tools)',
      ],
      [
        '      [--max-result-tokens N]',
        'results past N tokens reach the agent cut, the rest readable as',
        'mcp-host-result:// resources (default 25000; 0: no limit)',
      ],
      [
        '      [--own-servers]',
        "start this serve's own servers; by default the sessions in one",
        'folder share one gateway and one process per server, which',
        'ends MCP_HOST_SERVE_GRACE_MS (30000) after its last session',
      ],
      [
        'serve --http [--host ADDRESS] [--port N] [--tls-cert FILE --tls-key FILE] --config FILE',
        'the team gateway: the gateway over Streamable HTTP for many',
        'people, signed in with the company\'s OAuth server (the "gateway"',
        'object of the --config file); loopback unless --allow-remote,',
        'which also needs TLS or --insecure-http (TLS ends in front);',
        '/healthz, /readyz, drains on SIGTERM (docs/team-gateway.md)',
      ],
    ],
  },
  search: {
    required: [],
    optional: ['QUERY'],
    help: [
      [
        'search [QUERY] [--all | --cursor CURSOR]',
        'search the MCP registry (mcpHost.registry.url / MCP_HOST_REGISTRY_URL):',
        'the first 30, every page (--all), or the page a nextCursor names',
      ],
    ],
  },
  add: {
    required: ['NAME'],
    optional: [],
    help: [
      ['add NAME --from-registry ID', 'install a registry server (its npm/pypi/oci package, else its remote)'],
      ['add NAME -- COMMAND [ARGS...]', 'add a local (stdio) server'],
      ['add NAME --url URL [--transport http|sse|ws]', 'add a remote server'],
      ['    with add: [--scope project|workspace|user] [--env K=V]... [--header K=V]...'],
    ],
  },
  'add-json': {
    required: ['NAME', 'JSON'],
    optional: [],
    help: [['add-json NAME JSON [--scope S]', 'add a server entry given as JSON']],
  },
  remove: {
    required: ['NAME'],
    optional: [],
    help: [['remove NAME [--scope S]', 'remove a server entry (comments and other entries are kept)']],
  },
  import: {
    required: [],
    optional: [],
    help: [
      [
        'import --from APP [--scope S]',
        'copy servers from claude-desktop, claude-code, cursor, windsurf,',
        'copilot-cli, gemini-cli or codex',
        '(default scope: user; name clashes are reported and skipped)',
      ],
    ],
  },
  approve: {
    required: [],
    optional: ['NAME...'],
    help: [
      [
        'approve [NAME...]',
        "approve the folder's own servers (.mcp.json, .vscode/mcp.json):",
        'shows what each would run, then lets them start here and in the',
        'editor until their definition changes (no NAME: every one waiting)',
      ],
    ],
  },
} satisfies Record<string, CommandSpec>;

export type Command = keyof typeof COMMAND_TABLE;
