/**
 * What an agent's calls go through on their way to the host (gateway.ts hands these the parts
 * they need as `AgentDeps`): the call options that route a server's questions and progress back to
 * the asking agent, URI mapping, and the tool call with its result cut to the limit.
 */
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ClientCapabilities,
  JSONRPCNotification,
  RequestId,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { CallOptions } from '../host-api.js';
import type { Catalog, ExposedTool } from './catalog.js';
import type { DormantTools } from './dormant.js';
import type { AskAgent, ParkedCalls } from './input-bridge.js';
import type { agentTools, AgentView } from './views.js';
import { limitToolResult, type ResultPages } from './result-limit.js';
import { forwardedResult } from './forward.js';
import { callSignIn } from './auth-tool.js';
import { errorText, type Agent, type GatewayOptions } from './agent.js';

/** The gateway's parts an agent's requests are answered from. */
export interface AgentDeps {
  readonly opts: GatewayOptions;
  readonly parked: ParkedCalls;
  readonly dormant: DormantTools;
  catalogOf(agent: Agent): Catalog;
  listTools(agent: Agent): ReturnType<typeof agentTools>;
  shownTo(view: AgentView): (server: string) => boolean;
  firstListsReady(): Promise<void>;
  /** Where `agent`'s cut results are kept and read back. */
  resultsOf(agent: Agent): ResultPages;
  /** Agents' forwarded requests (tools/call, resources/read, prompts/get) by the path they took. */
  readonly paths: PathCounts;
}

/** Agents' requests the gateway forwards, by path: the fast path's frames, or the SDK server's handlers. */
export interface PathCounts {
  fast: number;
  full: number;
}

/** A parked (2026-07-28) call: questions go back through `ask`, and it ends on `signal`. */
export interface Parked {
  ask: AskAgent;
  signal: AbortSignal;
}

/**
 * What a call needs of the agent request it serves, whether the SDK server dispatched it
 * (`requestOf`) or the fast path took its frame (fast-path.ts).
 */
export interface AgentRequest {
  id: RequestId;
  signal: AbortSignal;
  progressToken?: string | number;
  /** The 2026-07-28 `_meta` envelope of the request. */
  envelope?: Record<string, unknown>;
  /** Sends a notification about this request (progress) on its stream. */
  notify(n: Omit<JSONRPCNotification, 'jsonrpc'>): Promise<void>;
}

export function requestOf(ctx: ServerContext): AgentRequest {
  const token = ctx.mcpReq._meta?.progressToken;
  return {
    id: ctx.mcpReq.id,
    signal: ctx.mcpReq.signal,
    ...(token !== undefined ? { progressToken: token } : {}),
    ...(ctx.mcpReq.envelope ? { envelope: ctx.mcpReq.envelope as Record<string, unknown> } : {}),
    notify: (n) => ctx.mcpReq.notify(n as never),
  };
}

/** A modern agent declares its capabilities on each request, not once per connection. */
function capabilities(agent: Agent, req: AgentRequest, parked: boolean): ClientCapabilities | undefined {
  if (!agent.modern) return agent.server.getClientCapabilities();
  // Only a parked tool call can hand a question back (input-bridge.ts); elsewhere the editor asks.
  if (!parked) return {};
  return req.envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

export function callOptions(
  opts: GatewayOptions,
  agent: Agent,
  target: string,
  req: AgentRequest,
  parked?: Parked,
): CallOptions {
  agent.used.add(target);
  const token = req.progressToken;
  // The origin lets the bridge send a server's question back to this agent request.
  const out: CallOptions = {
    signal: parked?.signal ?? req.signal,
    ...(opts.bridge
      ? {
          origin: opts.bridge.origin(agent.server, req.id, parked?.ask, capabilities(agent, req, parked !== undefined)),
        }
      : {}),
    ...(opts.fastPath ? { asFrame: true } : {}),
  };
  if (token !== undefined) {
    out.onProgress = (p) => {
      req.notify({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined);
    };
  }
  return out;
}

export function mapUri(server: string, catalog: Catalog): (uri: string) => string {
  return (uri) => catalog.resources.find((r) => r.resource.server === server && r.resource.uri === uri)?.uri ?? uri;
}

/** Each catalogue's tools by name, made on its first lookup (a catalogue is rebuilt, never changed). */
const toolIndex = new WeakMap<readonly ExposedTool[], Map<string, ExposedTool>>();

/** The tool `name` of `catalog`: the first of that name, as `find` gives it, without a scan per call. */
export function toolNamed(catalog: Catalog, name: string): ExposedTool | undefined {
  let index = toolIndex.get(catalog.tools);
  if (!index) {
    index = new Map();
    for (const t of catalog.tools) if (!index.has(t.name)) index.set(t.name, t);
    toolIndex.set(catalog.tools, index);
  }
  return index.get(name);
}

/** The exposed tool `name` of `agent`'s view: its profile's, or a dormant one (not for a profile). */
export function exposedTool(deps: AgentDeps, agent: Agent, name: string): ExposedTool | undefined {
  // A server that lost its connection reconnects on this call, as the host's next use does
  // (dormant.ts); a profile's agent only gets the tools its profile lists.
  return (
    toolNamed(deps.catalogOf(agent), name) ??
    (agent.view.profile === undefined ? deps.dormant.find(name, deps.opts) : undefined)
  );
}

/** One gateway tool call for `agent`, with the result cut to the limit. */
export async function callExposed(
  deps: AgentDeps,
  agent: Agent,
  name: string,
  args: Record<string, unknown>,
  req: AgentRequest,
  parked?: Parked,
): Promise<CallToolResult> {
  const entry = exposedTool(deps, agent, name);
  if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool "${name}"`);
  return callEntry(deps, agent, entry, args, req, parked);
}

/** A call of an exposed tool found already (`exposedTool`). */
export async function callEntry(
  deps: AgentDeps,
  agent: Agent,
  entry: ExposedTool,
  args: Record<string, unknown>,
  req: AgentRequest,
  parked?: Parked,
): Promise<CallToolResult> {
  const { opts } = deps;
  if (entry.signIn && opts.signIn)
    return callSignIn(opts.host, opts.signIn, entry.tool.server, parked?.signal ?? req.signal);
  const call = callOptions(opts, agent, entry.tool.server, req, parked);
  try {
    // The server's wire result, forwarded (forward.ts): not turned into the host's shape and back.
    const raw = await opts.host.forwardToolCall(entry.tool.server, entry.tool.name, args, call);
    const r = forwardedResult(raw, mapUri(entry.tool.server, deps.catalogOf(agent)));
    if (typeof r === 'string')
      return { content: [{ type: 'text', text: `${entry.tool.server}: ${r}` }], isError: true };
    return (await limitToolResult(
      r,
      opts.resultLimit?.() ?? {},
      deps.resultsOf(agent),
      entry.tool.outputSchema !== undefined,
    )) as CallToolResult;
  } catch (err) {
    // A host failure (server down, timeout, bad arguments) is a tool error the model can read.
    return { content: [{ type: 'text', text: errorText(err) }], isError: true };
  }
}
