/**
 * The contract between the core engine and its front ends (editor layer, CLI, exported API,
 * benchmarks): the options `createHost` takes and the types `McpHost` (connection/mcp-host.ts)
 * hands out; front ends only observe and ask.
 */
import type { SandboxRuntime } from './sandbox/runtime.js';
import type { OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import type { Event } from './events.js';
import type { Clock, KeyValueStore, Logger } from './ports.js';
import type { ServerDefinition } from './config/types.js';
import type {
  CallOrigin,
  ConnectionState,
  HostPrompt,
  HostResource,
  HostResourceTemplate,
  HostTool,
  RelatedCalls,
  ServerListCache,
} from './host-data.js';
import type { FeatureOptions } from './features/types.js';
import type { RunningTask } from './features/tasks.js';

/** The plain data (host-data.ts), part of this contract. */
export type * from './host-data.js';

export interface CallOptions {
  /** Per-call timeout in ms; falls back to MCP_TOOL_TIMEOUT / the configured default. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** Status of a tool call that runs as a task (created, working, input_required, …). */
  onTaskStatus?: (t: RunningTask) => void;
  /**
   * Who asked (opaque to the host): a question the server asks while this request runs is handed
   * to the elicitation/sampling port with the origins of the requests it may belong to.
   */
  origin?: CallOrigin;
  /**
   * The gateway's fast path (`forwardToolCall`, `forwardResourceRead`, `forwardPrompt`): a plain
   * request on a 2025-11-25 connection goes to the server as a frame of its own, not through the
   * SDK client's request path (connection/frame-channel.ts). Everything else about the call is the same.
   */
  asFrame?: boolean;
}

/** A snapshot of one server, as the tree, the CLI and the exported API see it. */
export interface ServerSnapshot {
  name: string;
  definition: ServerDefinition;
  state: ConnectionState;
  tools: HostTool[];
  resources: HostResource[];
  resourceTemplates: HostResourceTemplate[];
  prompts: HostPrompt[];
  /** The lists are the last run's (kept across restarts), shown while the server connects. */
  cached?: boolean;
}

export interface ServerChangeEvent {
  name: string;
  /** undefined when the server was removed. */
  snapshot: ServerSnapshot | undefined;
}

/** Answers a server's elicitation request (form or URL) on the user's behalf. */
export interface ElicitationPort {
  elicit(
    server: string,
    request:
      | { mode: 'form'; message: string; requestedSchema: Record<string, unknown> }
      | { mode: 'url'; message: string; url: string; elicitationId: string },
    signal?: AbortSignal,
    /** The requests in flight on that server when it asked (see connection/in-flight.ts). */
    related?: RelatedCalls,
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>;
}

/** Serves `sampling/createMessage`: one port, `HostOptions.features.sampling` (src/core/features/types.ts). */
export type { SamplingPort } from './features/types.js';

/** The workspace folders offered to servers as roots; `onDidChange` triggers `roots/list_changed`. */
export interface RootsPort {
  /** `server` lets a front end add roots for one server beyond the workspace folders. */
  roots(server?: string): { uri: string; name?: string }[];
  onDidChange: Event<void>;
}

/** Everything `createHost` (src/core/host.ts) needs from its front end. */
export interface HostOptions {
  logger: Logger;
  /** The last lists of each server, kept between runs: shown, marked cached, while it reconnects. */
  listCache?: ServerListCache;
  /** Per-server log sink (stderr lines, connection events). Defaults to `logger`. */
  serverLogger?: (server: string) => Logger;
  clock?: Clock;
  /** Environment used for MCP_* overrides and `${VAR}`; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** The environment stdio servers inherit the SDK's safe subset of (HOME, PATH…); defaults to process.env. */
  serverEnv?: Record<string, string | undefined>;
  /** Folder where resource blobs are written. */
  blobDir: string;
  concurrency?: { local?: number; remote?: number };
  timeouts?: { connectMs?: number; toolCallMs?: number };
  /**
   * `onFirstUse`: a server whose last run's lists are in `listCache` is not started with the host;
   * it shows them (cached) and its first call, read or prompt starts it (`mcpHost.startServers`).
   * A server with nothing cached starts as with `onStartup`, the default, so its lists get cached.
   */
  startServers?: 'onStartup' | 'onFirstUse';
  /** Reconnect backoff of remote servers: base * 2^(n-1) ms, capped at maxMs, at most maxAttempts (defaults 1000, 30000, 5). */
  backoff?: { baseMs?: number; maxMs?: number; maxAttempts?: number };
  roots?: RootsPort;
  elicitation?: ElicitationPort;
  /** Returns an OAuth provider for a remote server (src/core/auth); undefined: no OAuth. */
  authProvider?: (def: ServerDefinition) => OAuthClientProvider | undefined;
  /**
   * Sampling, logging, ping and tasks (src/core/features): the one entry point for a server's
   * sampling requests and log lines. A gateway plugs in with `GatewayBridge.featureOptions`.
   */
  features?: FeatureOptions;
  /** Client identity sent in `initialize`. */
  clientInfo?: { name: string; version: string };
  /**
   * Wraps every new transport of a server (the protocol trace, src/core/trace); returns the
   * transport the client uses. Must pass messages through unchanged.
   */
  wrapTransport?: (def: ServerDefinition, transport: Transport) => Transport;
  /** The front end renders MCP Apps: declare the `io.modelcontextprotocol/ui` extension to servers. */
  apps?: boolean;
  /**
   * Test port: the transport for a definition instead of the real one (e.g. an in-memory pair for
   * an `http` server, so reconnects and session expiry run without sockets). Undefined: the real one.
   */
  transportFor?: (def: ServerDefinition) => { transport: Transport; beforeConnect?: () => Promise<void> } | undefined;
  /**
   * The protocol era (src/core/connection/era.ts): `auto` (default) lets stdio and Streamable
   * HTTP connections negotiate 2026-07-28; `legacy` keeps every connection on 2025-11-25.
   */
  eraNegotiation?: 'auto' | 'legacy';
  /** Where era verdicts are remembered across restarts; without it, for this host's life only. */
  eraStore?: KeyValueStore;
  /** Runs the servers admission sandboxes (src/core/sandbox); default: the process-wide runtime. */
  sandbox?: SandboxRuntime;
}
