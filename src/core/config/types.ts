/**
 * The shape of a server definition once it has been read, validated, expanded and tagged with
 * where it came from. Everything downstream of config (manager, tree, CLI) consumes these.
 */
import type { Transport } from '@modelcontextprotocol/server';
import type { SandboxPlan, SandboxSettings } from './sandbox-settings.js';
import type { SandboxPolicy } from './sandbox-policy.js';

// Scopes and problems are in files of their own so that modules the types name (the sandbox
// policy) can report problems without importing this file back.
export { SCOPES, type Scope } from './scope.js';
export type { ConfigProblem } from './problem.js';
import type { Scope } from './scope.js';
import type { ConfigProblem } from './problem.js';

export type TransportType = 'stdio' | 'sse' | 'http' | 'ws' | 'inprocess';

export interface OAuthSettings {
  clientId?: string;
  callbackPort?: number;
  authServerMetadataUrl?: string;
  scopes?: string[];
  /** `client_credentials`: machine-to-machine, no browser (SEP-1046). Default `authorization_code`. */
  grantType?: 'authorization_code' | 'client_credentials' | 'jwt-bearer';
  /** How a client_credentials client authenticates at the token endpoint; default `client_secret_basic`. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** JWS algorithm of the private_key_jwt assertion; default RS256. */
  signingAlgorithm?: string;
  /** Issuer of the authorization server the client credentials belong to; they are sent nowhere else. */
  issuer?: string;
  /** HTTPS URL of this client's metadata document (SEP-991), used as client_id where the AS supports it. */
  clientMetadataUrl?: string;
}

interface CommonConfig {
  /** Connect timeout override in ms. */
  timeout?: number;
  /** Tool call timeout override in ms (beside the global setting and MCP_TOOL_TIMEOUT, which it beats). */
  toolTimeout?: number;
  disabled?: boolean;
  /** Where it was installed from (registry browser, `add --from-registry`): checked under a "registryOnly" policy. */
  registry?: { id: string; version?: string };
}

export interface StdioServerConfig extends CommonConfig {
  type: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  envFile?: string;
  /** Development mode (src/core/dev): restart on changes to `watch` globs, start under a debugger. */
  dev?: DevSettings;
  /** VS Code's `sandboxEnabled`: run it under the sandbox (src/core/sandbox). */
  sandboxEnabled?: boolean;
  /** The file's top-level `sandbox` plus the entry's own, merged (src/core/config/sandbox-settings.ts). */
  sandbox?: SandboxSettings;
}

export interface DevSettings {
  /** Globs relative to the server's folder (its `cwd`, else its workspace folder). */
  watch?: string[];
  debug?: { type: 'node' | 'python' };
}

export interface RemoteServerConfig extends CommonConfig {
  type: 'sse' | 'http' | 'ws';
  url: string;
  headers?: Record<string, string>;
  oauth?: OAuthSettings;
  /** A shell command whose stdout is a JSON object of headers, run at connect and again on 401/403. */
  headersHelper?: string;
}

/** A server the host runs in its own process (dynamic scope only), connected by a linked pair. */
export interface InProcessServerConfig extends CommonConfig {
  type: 'inprocess';
  /** Stable identity used for the dedupe signature. */
  id: string;
  /** Connects a fresh server instance to the given transport. */
  start(transport: Transport): Promise<void>;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig | InProcessServerConfig;

/** Where a definition came from, precise enough to jump to it in its file. */
export interface ConfigSource {
  scope: Scope;
  /** Absolute path of the file, or e.g. "settings:mcpHost.servers" for the user setting. */
  file: string;
  /** JSON path of the entry inside the file, e.g. ["mcpServers", "github"]. */
  jsonPath: (string | number)[];
  /** Workspace folder the file belongs to (workspace/project scopes, multi-root). */
  folder?: string;
}

export interface ServerDefinition {
  name: string;
  config: ServerConfig;
  source: ConfigSource;
  /** `stdio:[command,...args]` or `url:<url>`; dedupe key across scopes. */
  signature: string;
  /** Stable hash of the whole expanded config: a change means the server must restart. */
  hash: string;
  /**
   * Hash of the definition with `${input:…}` variables left as written: what a user approves for
   * workspace/project servers (approvals.ts), so a new password typed into an input needs no re-approval
   * while any change to the command, URL, environment or headers does.
   */
  approvalHash?: string;
  /** Set for the team gateway of the managed file or the setting (sources/team-gateway.ts): its name for people. */
  teamGateway?: TeamGatewayMark;
  /** Set by admission (`admit.ts`): whether it runs, or why not. Undefined: not admitted yet (runs unless `config.disabled`). */
  admission?: Admission;
}

/** What a definition keeps of a `teamGateway` setting. */
export interface TeamGatewayMark {
  /** The name people see (the tree's row); the server's own name is made from it. */
  displayName: string;
}

/** Why admission keeps a server from running. */
export type HeldReason = 'config' | 'policy' | 'user-disabled' | 'untrusted' | 'not-approved' | 'manual' | 'editor';

/** Admission's answer for one server; `message` is for people. `ask`: a decision is needed (never decided, or changed since). */
export type Admission =
  | {
      run: true;
      sandbox?: SandboxPlan;
      /** VS Code reads its file and runs its own copy too; MCP Host runs it because the user chose so. */
      sharedWithEditor?: boolean;
    }
  | {
      run: false;
      reason: HeldReason;
      message: string;
      ask?: boolean;
      /** The managed rule that held it back: its file and JSON path (policy only). */
      rule?: { file: string; jsonPath: (string | number)[] };
    };

export interface LoadedConfig {
  servers: ServerDefinition[];
  problems: ConfigProblem[];
  /** Every file this load read or looked for (config files, env files): what to watch. */
  files?: string[];
  /** Allow/deny rules of the managed file, for admission. */
  policy?: Policy;
}

/** One allow/deny rule; exactly one of the fields is set. */
export interface PolicyEntry {
  serverName?: string;
  serverCommand?: string[];
  /** `*` matches any run of characters, e.g. "https://*.example.com/*". */
  serverUrl?: string;
}

/** A policy switch that is on, and where it was written (file + JSON path). */
export interface PolicySwitch {
  file: string;
  jsonPath: (string | number)[];
}

/** The registry's answer for one server under "registryOnly". */
export type RegistryCheck = { ok: true } | { ok: false; message: string };

/** Allow/deny rules and switches of the managed file (evaluated in policy.ts and policy-scope.ts). */
export interface Policy {
  /** The managed file the policy came from, named in messages. */
  file: string;
  /** undefined: no allow-list (everything not denied is allowed). */
  allowed?: PolicyEntry[];
  denied: PolicyEntry[];
  /** The managed file exists but cannot be parsed: every server is denied (fail closed) until it is fixed. */
  broken?: boolean;
  /** `"managedServersOnly": true`: only managed servers run (policy-scope.ts). */
  managedOnly?: PolicySwitch;
  /** `"registryOnly": true`: other servers run only when installed from the registry and confirmed by it. */
  registryOnly?: PolicySwitch & { registryUrl?: string };
  /** Several managed files (the system one, then the setting's): each binds; a server must pass every one. */
  layers?: Policy[];
  /** Set at read time under `registryOnly`: the registry's verdict per server name. */
  registryChecks?: ReadonlyMap<string, RegistryCheck>;
  /** `sandboxPolicy`: the sandbox required for local servers, and caps on what they may be allowed. */
  sandbox?: SandboxPolicy;
}
