/**
 * What users see in settings.json and the mcp.json files (hover text, completions, snippets) for
 * each key of a server entry. schema.ts attaches these to the zod schema with `.meta()`, and
 * scripts/gen-schema.mjs turns that into media/*.schema.json and the `mcpHost.servers` setting.
 * Only documentation and editor hints live here; the shape itself is the zod schema.
 */

export const ENTRY_DOCS = {
  type: {
    enum: ['stdio', 'sse', 'http', 'ws', 'streamableHttp', 'streamable-http'],
    enumDescriptions: [
      'A local process the host starts, talking JSON-RPC over stdin/stdout. The default when "command" is set.',
      'A remote server using the older HTTP + Server-Sent Events transport.',
      'A remote server using Streamable HTTP (the current MCP transport). The default for a "url" unless its path ends in /sse.',
      'A remote server over WebSocket (ws:// or wss://), subprotocol "mcp".',
      'Same as "http" (the spelling some other apps use).',
      'Same as "http" (the spelling some other apps use).',
    ],
    markdownDescription:
      'How to talk to the server. Omit it for a local server with `command`; for a `url` it defaults to `http` (Streamable HTTP), or `sse` when the path ends in `/sse`, or `ws` for `ws://` URLs.',
    description: 'How to talk to the server: stdio (local), sse, http (Streamable HTTP) or ws.',
  },
  command: {
    minLength: 1,
    description: 'Program that starts a local server, e.g. "npx", "uvx", "node" or an absolute path. Found on PATH.',
    examples: ['npx', 'uvx', 'node', 'docker'],
  },
  args: {
    description: 'Arguments passed to "command", e.g. ["-y", "@modelcontextprotocol/server-everything"].',
    default: [],
  },
  env: {
    description:
      'Environment variables for the server process, added to a safe default environment. Put secrets in ${input:id} or ${env:VAR} rather than in the file. Values are never shown in logs.',
  },
  cwd: {
    description:
      "Working directory of the server process. Relative paths start at the workspace folder of the file (or the file's folder).",
  },
  envFile: {
    description:
      'A .env file (KEY=VALUE lines, # comments, quotes allowed) whose variables are added to the server\'s environment; "env" wins on conflicts. Relative paths start at the workspace folder of the file.',
    examples: ['${workspaceFolder}/.env'],
  },
  url: {
    minLength: 1,
    description:
      'Address of a remote server, e.g. "https://example.com/mcp" (http/sse) or "wss://example.com/mcp" (ws).',
    examples: ['https://example.com/mcp', 'http://127.0.0.1:3000/sse'],
  },
  headers: {
    description:
      'HTTP headers sent with every request to a remote server, e.g. {"Authorization": "Bearer ${input:token}"}. Credential values are redacted in logs.',
  },
  headersHelper: {
    description:
      'A shell command whose output is a JSON object of HTTP headers (e.g. {"Authorization": "Bearer …"}), run when the server connects and again when it answers 401 or 403. It must finish within 10 s and print at most 64 KiB; its output is never logged. Remote servers only.',
    examples: ['${userHome}/bin/mcp-token.sh'],
  },
  timeout: {
    description: 'Connect timeout for this server in milliseconds; overrides mcpHost.timeouts.connect and MCP_TIMEOUT.',
  },
  toolTimeout: {
    description:
      'Tool call timeout for this server in milliseconds; overrides mcpHost.timeouts.toolCall and MCP_TOOL_TIMEOUT. A call that reports progress restarts the timer.',
  },
  disabled: {
    default: false,
    description: 'Keep this server configured but do not start it.',
  },
  sandboxEnabled: {
    default: false,
    description:
      'Run this local server in a sandbox: it reads the system and the workspace, writes only the workspace and its own temporary folder, never sees credential stores (~/.ssh, cloud CLIs, git credentials, keychains, browser profiles) and connects only to the domains in "sandbox.network.allowedDomains" (and the npm registry). Linux (bubblewrap + socat) and macOS.',
  },
} as const;

export const OAUTH_DOCS = {
  clientId: {
    minLength: 1,
    description: 'A pre-registered OAuth client ID, for authorization servers without dynamic client registration.',
  },
  callbackPort: {
    description:
      'Fixed port of the loopback redirect (http://127.0.0.1:<port>/callback), when the client registration requires one.',
  },
  authServerMetadataUrl: {
    pattern: '^https://',
    description: "HTTPS URL of the authorization server's metadata (RFC 8414 / OpenID), skipping discovery.",
  },
  scopes: {
    description: 'Scopes to request, e.g. ["read", "write"].',
  },
  grantType: {
    default: 'authorization_code',
    enumDescriptions: [
      'A person signs in in the browser (PKCE).',
      'Machine-to-machine: the client authenticates itself with a secret or a signed JWT; no browser (SEP-1046).',
      'Enterprise-managed (SEP-990, cross-app access): the ID token of your company sign-in is exchanged at the identity provider for a grant this server accepts; no browser, needs "clientId" and its secret.',
    ],
    description:
      'How tokens are obtained: "authorization_code" (a person signs in, the default), "client_credentials" (machine-to-machine, needs "clientId" and a secret or private key set with Authenticate / mcp-host auth) or "jwt-bearer" (enterprise-managed: the company identity provider\'s sign-in is exchanged for this server\'s token).',
  },
  tokenEndpointAuthMethod: {
    default: 'client_secret_basic',
    description:
      'How a client_credentials client proves who it is: a client secret (HTTP Basic or form post) or a JWT signed with its private key (RFC 7523). The secret or key is kept in secret storage, never in this file.',
  },
  signingAlgorithm: {
    default: 'RS256',
    examples: ['RS256', 'ES256', 'PS256', 'EdDSA'],
    description: 'JWS algorithm of the private_key_jwt client assertion; must match the private key.',
  },
  issuer: {
    description:
      'Issuer URL of the authorization server the client credentials were registered with; they are sent to no other server. Without it the first authorization server that accepts them is remembered.',
  },
  clientMetadataUrl: {
    pattern: '^https://[^/]+/.+',
    description:
      "HTTPS URL where this client's OAuth client ID metadata document is published (SEP-991); used as the client ID when the authorization server supports it, instead of dynamic registration.",
  },
} as const;

export const REGISTRY_DOCS = {
  object: {
    description:
      'Which MCP Registry server this entry was installed from; written by the registry browser and `mcp-host add --from-registry`. Under a managed "registryOnly" policy it is checked against the registry at start.',
    additionalProperties: false,
  },
  id: { description: 'The registry name of the server, e.g. "io.github.user/weather".' },
  version: { description: 'The registry version that was installed.' },
} as const;

export const OAUTH_OBJECT_DOCS = {
  description:
    'OAuth settings for a remote server that requires sign-in. Usually not needed: the host discovers the authorization server and registers itself.',
  additionalProperties: false,
};

export const SERVER_DOCS = {
  title: 'MCP server',
  description:
    'One Model Context Protocol server. A local server has "command" (and "args", "env"); a remote server has "url" (and "type", "headers", "oauth"). Strings may use ${VAR}, ${VAR:-default}, ${env:VAR}, ${workspaceFolder}, ${userHome} and ${input:id}.',
  anyOf: [
    {
      required: ['command'],
      not: {
        required: ['url'],
      },
    },
    {
      required: ['url'],
      not: {
        required: ['command'],
      },
    },
  ],
  defaultSnippets: [
    {
      label: 'Local server (stdio)',
      body: {
        command: '${1:npx}',
        args: ['${2:-y}', '${3:package}'],
      },
    },
    {
      label: 'Remote server (Streamable HTTP)',
      body: {
        type: 'http',
        url: '${1:https://example.com/mcp}',
      },
    },
  ],
};

/** `dev` (VS Code's mcp.json shape): watch and debug. */
export const DEV_DOCS = {
  object: {
    description:
      "Development mode for a server you are writing: restart it when its files change, and start it under the debugger. The shape VS Code's mcp.json uses.",
  },
  watch: {
    description:
      'Glob pattern (or list of patterns) relative to the workspace folder, e.g. "src/**/*.ts". When a matching file changes, only this server restarts (after writes have settled) and the log says what changed in its tools, resources and prompts.',
  },
  debug: {
    description:
      'Start the server under the debugger and attach VS Code to it. Stopping the debug session stops the server, and stopping the server ends the session.',
  },
  debugType: {
    description:
      '"node": the server is started with --inspect on a free loopback port; "python": the server is started through debugpy (which must be installed).',
  },
} as const;

/** `.vscode/mcp.json` `inputs` (VS Code's input variables), for inputs-schema.ts. */
export const INPUT_DOCS = {
  list: {
    description:
      "Values asked for when a server starts, referenced as ${input:<id>} in server entries. Password inputs are kept in the editor's secret storage.",
  },
  id: {
    description: 'Name used in ${input:<id>}.',
  },
  type: {
    enumDescriptions: [
      'Ask for a text value.',
      'Pick one of "options".',
      'The result of running "command" (with "args").',
    ],
    description:
      'How the value is asked for: typed (promptString, the default), picked from options (pickString), or the result of a command.',
  },
  description: {
    description: 'The question shown when asking for the value.',
  },
  password: {
    description: 'promptString: hide what is typed and keep the value in secret storage.',
  },
  default: {
    description: 'promptString / pickString: the value offered first.',
  },
  options: {
    description: 'pickString: the choices, each a string or {"label", "value"}.',
  },
  command: {
    description: 'command: the id of the command whose result is the value.',
  },
  args: {
    description: 'command: the arguments passed to the command.',
  },
} as const;
