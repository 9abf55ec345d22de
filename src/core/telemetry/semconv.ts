/**
 * OpenTelemetry's semantic conventions for MCP (GenAI conventions, Development status: the names
 * may still change there; this file is the one place to follow them): span names, attribute names
 * and values, the four duration histograms and their bucket boundaries. What a JSON-RPC message
 * says about itself, turned into attributes: never arguments, results or anything a person typed.
 */
import type { Attributes } from '@opentelemetry/api';
import { PROTOCOL_VERSION_META_KEY, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { redactUrl } from '../redact.js';

export const ATTR = {
  method: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operation: 'gen_ai.operation.name',
  requestId: 'jsonrpc.request.id',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  serverAddress: 'server.address',
  serverPort: 'server.port',
} as const;

export const METRIC = {
  serverOperation: 'mcp.server.operation.duration',
  clientOperation: 'mcp.client.operation.duration',
  serverSession: 'mcp.server.session.duration',
  clientSession: 'mcp.client.session.duration',
} as const;

/** The conventions' `ExplicitBucketBoundaries` for all four histograms, in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** `error.type` when a tool answered with `isError: true` (the conventions' value). */
export const TOOL_ERROR = 'tool_error';
/** `error.type` of a request whose connection closed before its answer (ours: low cardinality). */
export const CONNECTION_CLOSED = 'connection_closed';
/** `error.type` of a request the asking side cancelled (notifications/cancelled). */
export const CANCELLED = 'cancelled';

/** What the transport underneath is, as the conventions record it ("Recording MCP transport"). */
export interface WireKind {
  /** `pipe` (stdio), `tcp` (HTTP, WebSocket), `unix` (a socket file). */
  transport: 'pipe' | 'tcp' | 'unix';
  /** `http`, `websocket`; none for stdio. */
  protocol?: 'http' | 'websocket';
  server?: { address: string; port?: number };
}

export function wireAttributes(w: WireKind): Attributes {
  return {
    [ATTR.networkTransport]: w.transport,
    ...(w.protocol ? { [ATTR.networkProtocol]: w.protocol } : {}),
    ...(w.server ? { [ATTR.serverAddress]: w.server.address } : {}),
    ...(w.server?.port !== undefined ? { [ATTR.serverPort]: w.server.port } : {}),
  };
}

type Params = { name?: unknown; uri?: unknown; _meta?: Record<string, unknown> } | undefined;

/** A request's own attributes (low cardinality first: those the metrics carry too) and its span name. */
export function requestFacts(msg: { method: string; params?: unknown }): {
  name: string;
  /** For spans and metrics. */
  common: Attributes;
  /** For spans only (high cardinality). */
  spanOnly: Attributes;
} {
  const params = msg.params as Params;
  const name = typeof params?.name === 'string' ? params.name : undefined;
  const common: Attributes = { [ATTR.method]: msg.method };
  let target: string | undefined;
  if (msg.method === 'tools/call' && name !== undefined) {
    common[ATTR.toolName] = name;
    common[ATTR.operation] = 'execute_tool';
    target = name;
  } else if (msg.method === 'prompts/get' && name !== undefined) {
    common[ATTR.promptName] = name;
    target = name;
  }
  const spanOnly: Attributes = {};
  if (typeof params?.uri === 'string' && /^resources\/(read|subscribe|unsubscribe)$/.test(msg.method))
    // A URI may carry a credential (user:password@, ?token=): the one redactor, as in logs.
    spanOnly[ATTR.resourceUri] = redactUrl(params.uri);
  // The URI is not in the span name: the conventions keep it out by default (cardinality).
  return { name: target !== undefined ? `${msg.method} ${target}` : msg.method, common, spanOnly };
}

/** The protocol version a message states: a 2026-07-28 request's `_meta`, or an `initialize` answer. */
export function statedVersion(msg: JSONRPCMessage): string | undefined {
  const m = msg as { params?: Params; result?: { protocolVersion?: unknown } };
  const meta = m.params?._meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof meta === 'string') return meta;
  const answered = m.result?.protocolVersion;
  return typeof answered === 'string' ? answered : undefined;
}

/** How a response ended, as `error.type` (absent: it did not fail) and the JSON-RPC code and message. */
export function outcomeOf(msg: JSONRPCMessage): { errorType?: string; code?: string; message?: string } {
  const m = msg as { error?: { code?: unknown; message?: unknown }; result?: { isError?: unknown } };
  if (m.error) {
    const code = typeof m.error.code === 'number' ? String(m.error.code) : '_OTHER';
    return {
      errorType: code,
      code,
      ...(typeof m.error.message === 'string' ? { message: m.error.message } : {}),
    };
  }
  if (m.result?.isError === true) return { errorType: TOOL_ERROR };
  return {};
}
