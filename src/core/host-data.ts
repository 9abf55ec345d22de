/**
 * The plain data the host hands out and takes in: tools, resources, prompts, contents, results,
 * a server's connection state, who asked for a call. Every layer of core reads these, so this
 * module imports nothing above the base files (ARCHITECTURE.md, "Layers"; checked by
 * scripts/lib/import-layers.mjs): the contract (`host-api.ts`) and its implementation
 * (`connection/`) both stand on it instead of on each other.
 */
import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import type { ToolUi } from './app-meta.js';
import type { HostErrorInfo } from './errors.js';
import type { ToolUpstream } from './upstream-meta.js';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as the host presents it: sanitised, with its qualified `mcp__server__tool` name. */
export interface HostTool {
  server: string;
  /** The tool's own name on the server (used on the wire). */
  name: string;
  /** `mcp__<server>__<tool>`, normalised, at most 64 characters, unique within the host. */
  qualifiedName: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** `execution.taskSupport` (2025-11-25): such a tool runs as a task when the server supports tasks. */
  taskSupport?: 'required' | 'optional';
  /** MCP Apps: the tool's `ui://` app and its visibility (`_meta.ui`, or the older `ui/resourceUri`). */
  ui?: ToolUi;
  /** A gateway's tool: the upstream server it comes from and that server's name for it (upstream-meta.ts). */
  upstream?: ToolUpstream;
}

export interface HostResource {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface HostResourceTemplate {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface HostPrompt {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

/** One content block of a tool result or prompt message; binary data never stays inline when large. */
export type HostContent =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'audio'; mimeType: string; data: string }
  | { type: 'resource_link'; uri: string; name?: string; description?: string; mimeType?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blobPath?: string };

export interface ToolCallResult {
  content: HostContent[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
  durationMs: number;
  /** The result's `_meta`, passed through (apps may read it). */
  meta?: Record<string, unknown>;
}

export interface ResourceReadResult {
  contents: {
    uri: string;
    mimeType?: string;
    text?: string;
    /** Blobs are written to disk; this is the file. */
    blobPath?: string;
    size?: number;
    /** The content item's `_meta` (an MCP App's HTML carries its CSP here). */
    meta?: Record<string, unknown>;
  }[];
}

export interface PromptGetResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: HostContent }[];
}

export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
}

export type ConnectionState =
  /** `reason`: why a connected server is being connected again (shown, e.g. "unresponsive"). */
  | { kind: 'pending'; attempt: number; maxAttempts: number; since: number; reason?: string }
  | {
      kind: 'connected';
      serverInfo: ServerInfo;
      capabilities: Record<string, unknown>;
      instructions?: string;
      connectedAt: number;
      /** Time the connect took, in ms. */
      connectMs: number;
      /** The protocol revision negotiated (2026-07-28, or 2025-11-25 and older). */
      protocolVersion?: string;
      /** Rules of the protocol the server broke and the host made do without (cache-hints.ts), one line each. */
      protocolWarnings?: string[];
    }
  | { kind: 'failed'; error: HostErrorInfo; at: number }
  | { kind: 'needs-auth'; message: string; at: number }
  /**
   * Only what the host itself causes: `config`, it was handed a definition that does not run
   * (why: `definition.admission`), or `user`, stopped by the user, or `on-first-use`, not started
   * yet because `mcpHost.startServers` is `onFirstUse` and its last run's lists stand in (cached):
   * the first use of one of them starts it.
   */
  | { kind: 'disabled'; reason: 'config' | 'user' | 'on-first-use'; message?: string };

export type StateKind = ConnectionState['kind'];

/** Who made a request: an opaque value the caller passes in `CallOptions.origin` (the gateway: agent + request id). */
export type CallOrigin = object;

/** What the host knows about the requests a server's question may belong to. */
export interface RelatedCalls {
  /** The origin of every request in flight on the server when it asked, oldest first; undefined for a caller that gave none (the editor's own calls). */
  readonly callers: readonly (CallOrigin | undefined)[];
  /**
   * The request it belongs to, when the wire says so: it came on that request's response stream
   * (or from inside it, in process), or it named the task that request runs as.
   */
  readonly owner?: { readonly origin: CallOrigin | undefined; readonly via: 'stream' | 'task' };
}

/** The last lists of one server, kept between runs (connection/list-cache.ts). */
export interface CachedLists {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  prompts: Prompt[];
  /** Clock ms when these lists were fetched. */
  at: number;
}

/** Where the last lists of each server are kept: shown, marked cached, while it reconnects. */
export interface ServerListCache {
  get(def: { name: string; hash: string }): CachedLists | undefined;
  put(def: { name: string; hash: string }, lists: Omit<CachedLists, 'at'>): Promise<void>;
  clear(): Promise<void>;
}
