/**
 * The gateway's forwarding path for `tools/call`: the upstream server's wire result reaches the
 * agent as it came (McpHost.forwardToolCall), with only what the gateway must change: resource URIs
 * shown as the agent sees them and the result limit (result-limit.ts). And, for a 2025-11-25 agent,
 * the call is answered without the SDK server's parse of the request and of the result: the
 * upstream result was the server's and the agent's own client checks it, so a second full parse
 * here would be the gateway checking what it only forwards. A 2026-07-28 agent's call keeps the
 * SDK's handler, which owns the `input_required` rounds (input-bridge.ts).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult, JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';
import type { WireItem } from './result-limit.js';

/** The parts of a tool result the gateway passes on (its `_meta` stays with the upstream, as before). */
export interface ForwardedResult {
  content: WireItem[];
  structuredContent?: unknown;
  isError?: true;
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The agent's copy of an upstream result, or a sentence saying why it is not a tool result (the
 * agent then gets a tool error naming the server, as a result the SDK refused gave before).
 */
export function forwardedResult(
  raw: Readonly<Record<string, unknown>>,
  mapUri: (uri: string) => string,
): ForwardedResult | string {
  let content: unknown = raw.content;
  // Protocol 2024-10-07 servers answer `{ toolResult }` instead of content blocks (results.ts).
  if (content === undefined && 'toolResult' in raw) content = [{ type: 'text', text: JSON.stringify(raw.toolResult) }];
  if (content === undefined) content = [];
  if (!Array.isArray(content)) return 'its result has no content list';
  const out: WireItem[] = [];
  for (const item of content as unknown[]) {
    if (!isRecord(item) || typeof item.type !== 'string' || !CONTENT_TYPES.has(item.type))
      return `its result holds a content item of an unknown kind: ${JSON.stringify(item).slice(0, 200)}`;
    out.push(withMappedUri(item as WireItem, mapUri));
  }
  const sc = raw.structuredContent;
  return {
    content: out,
    ...(sc !== undefined && sc !== null ? { structuredContent: sc } : {}),
    ...(raw.isError === true ? { isError: true as const } : {}),
  };
}

/** Only links and embedded resources name a URI; every other item goes on untouched (no copy). */
export function withMappedUri(item: WireItem, mapUri: (uri: string) => string): WireItem {
  if (item.type === 'resource_link' && typeof item.uri === 'string') {
    const uri = mapUri(item.uri);
    return uri === item.uri ? item : { ...item, uri };
  }
  if (item.type === 'resource' && isRecord(item.resource) && typeof item.resource.uri === 'string') {
    const uri = mapUri(item.resource.uri);
    return uri === item.resource.uri ? item : { ...item, resource: { ...item.resource, uri } };
  }
  return item;
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * A `fallbackRequestHandler` for a 2025-11-25 agent's server with no `tools/call` handler of its
 * own: answers `tools/call` through `call` with its params checked by hand (the shape the SDK's
 * schema would ask), and every other method it was not given as "method not found".
 */
export function forwardingToolsCall(
  call: (c: ToolCall, ctx: ServerContext) => Promise<CallToolResult>,
): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
  return async (request, ctx) => {
    if (request.method !== 'tools/call') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    const p = request.params;
    if (!isRecord(p) || typeof p.name !== 'string')
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Invalid tools/call request: params.name must be a string',
      );
    const args = p.arguments ?? {};
    if (!isRecord(args))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Invalid tools/call request: params.arguments must be an object',
      );
    return call({ name: p.name, arguments: args }, ctx);
  };
}
