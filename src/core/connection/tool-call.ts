/**
 * One tool call on a server's live connection, the only work between a caller of `McpHost` and
 * the SDK's `callTool`: the tool found by name, its arguments and structured output checked, and,
 * for a peer that speaks MCP itself (the gateway), the result passed on as it came.
 */
import type { CallToolRequestOptions, CallToolResult, Client, RequestOptions } from '@modelcontextprotocol/client';
import type { CallOptions, HostTool } from '../host-api.js';
import { validateToolArgs } from '../capabilities/index.js';
import { outputCheckFor, sdkToolDefinition } from '../capabilities/output-check.js';
import type { ClientFeatures } from '../features/index.js';
import { HostError } from './errors.js';
import type { LiveConnection } from './connect.js';
import { HostClient } from './host-client.js';
import type { ServerEntry } from './server-entry.js';
import { requestOptions } from './requests.js';
import type { FrameChannel } from './frame-channel.js';

/** What a call needs of its host: the client features (tasks) and the default tool timeout. */
export interface ToolCallDeps {
  features: ClientFeatures;
  toolTimeoutMs: number;
}

/**
 * A result schema that accepts what came: for a forwarded call, whose peer's own client checks the
 * result, so the SDK's full tool-result parse here would be a second one (forwardToolCall).
 */
const asItCame = {
  '~standard': { version: 1, vendor: 'mcp-host', validate: (value: unknown) => ({ value }) },
} as const;

/** The request `client.callTool` makes, with the result as it came; one that is not an object is refused. */
async function forwardedCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  opts: RequestOptions,
): Promise<CallToolResult> {
  return asToolResult(
    await client.request({ method: 'tools/call', params: { name, arguments: args } }, asItCame, opts),
  );
}

/**
 * The same request as a frame of its own (frame-channel.ts): no SDK request path, the result as it
 * came; the timeout, its reset on progress, the signal and the progress as `requestOptions` gives them.
 */
async function framedCall(
  frames: FrameChannel,
  name: string,
  args: Record<string, unknown>,
  opts: RequestOptions,
  defaultTimeoutMs: number,
): Promise<CallToolResult> {
  const onprogress = opts.onprogress;
  const r = await frames.request(
    'tools/call',
    { name, arguments: args },
    {
      timeoutMs: opts.timeout ?? defaultTimeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(onprogress ? { onProgress: (p) => onprogress(p as unknown as Parameters<typeof onprogress>[0]) } : {}),
    },
  );
  return asToolResult(r);
}

function asToolResult(r: unknown): CallToolResult {
  if (typeof r !== 'object' || r === null || Array.isArray(r))
    throw new HostError(
      'server-error',
      `the server answered tools/call with ${String(JSON.stringify(r)).slice(0, 200)}, not a tool result`,
    );
  return r as CallToolResult;
}

/**
 * Tool by its server-side name, or else its qualified name. Indexed once per tool list (a
 * refreshed list is a new array), so a call on a server with 2,000 tools is not a linear scan.
 */
const toolIndex = new WeakMap<readonly HostTool[], Map<string, HostTool>>();
function toolNamed(tools: readonly HostTool[], name: string): HostTool | undefined {
  let index = toolIndex.get(tools);
  if (!index) {
    index = new Map();
    // First match wins and plain names win over qualified ones, as two find() calls would.
    for (const t of tools) if (!index.has(t.name)) index.set(t.name, t);
    for (const t of tools) if (!index.has(t.qualifiedName)) index.set(t.qualifiedName, t);
    toolIndex.set(tools, index);
  }
  return index.get(name);
}

/**
 * A tool call on the live connection: the only work between the caller and the SDK's `callTool`;
 * `forward`: the plain request of forwardToolCall where it applies.
 */
export async function callToolOn(
  deps: ToolCallDeps,
  e: ServerEntry,
  conn: LiveConnection,
  tool: string,
  args: Record<string, unknown>,
  opts: CallOptions & { timeoutMs: number },
  forward: boolean,
): Promise<CallToolResult> {
  const t = toolNamed(e.tools, tool);
  if (!t) {
    const names = e.tools.map((x) => x.name);
    const shown =
      names.length > 30 ? `${names.slice(0, 30).join(', ')}, … (${names.length} in all)` : names.join(', ') || '(none)';
    throw new HostError('unknown-tool', `${e.name} has no tool "${tool}"; its tools: ${shown}`);
  }
  const problems = validateToolArgs(t, args);
  if (problems.length)
    throw new HostError('invalid-arguments', `invalid arguments for ${t.qualifiedName}: ${problems.join('; ')}`);
  // The SDK checks structured output itself only from a list in its own cache (HostClient.keepsListInSdkCache);
  // elsewhere the host checks it, and tells the SDK the tool so it does not search its cache.
  const client = conn.client;
  const sdkKeepsTools = client instanceof HostClient && client.keepsListInSdkCache('tools');
  const checkOutput = sdkKeepsTools ? undefined : outputCheckFor(t);
  const onTaskStatus = opts.onTaskStatus;
  const reqOpts: CallToolRequestOptions = requestOptions(opts, deps.toolTimeoutMs);
  if (!sdkKeepsTools) reqOpts.toolDefinition = sdkToolDefinition(t);
  // A task the call runs as is named in the server's questions about it: tie the id to the caller.
  const plain = forward && client.getProtocolEra() !== 'modern' && deps.features.isPlainCall(client, t);
  const raw = plain
    ? opts.asFrame && conn.frames
      ? await framedCall(conn.frames, t.name, args, reqOpts, deps.toolTimeoutMs)
      : await forwardedCall(client, t.name, args, reqOpts)
    : await deps.features.callTool(e.name, client, t, args, reqOpts, e.log, (task) => {
        e.calls.tagTask(opts.origin, task.taskId);
        onTaskStatus?.(task);
      });
  checkOutput?.(raw);
  return raw;
}
