/**
 * What an agent's calls go through on their way to the host (gateway.ts hands these the parts
 * they need as `AgentDeps`): the call options that route a server's questions and progress back to
 * the asking agent, URI mapping, and the tool call with its result cut to the limit.
 */
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult, ClientCapabilities, ServerContext } from '@modelcontextprotocol/server';
import type { CallOptions } from '../host-api.js';
import type { Catalog } from './catalog.js';
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
}

/** A parked (2026-07-28) call: questions go back through `ask`, and it ends on `signal`. */
export interface Parked {
  ask: AskAgent;
  signal: AbortSignal;
}

/** A modern agent declares its capabilities on each request, not once per connection. */
function capabilities(agent: Agent, ctx: ServerContext, parked: boolean): ClientCapabilities | undefined {
  if (!agent.modern) return agent.server.getClientCapabilities();
  // Only a parked tool call can hand a question back (input-bridge.ts); elsewhere the editor asks.
  if (!parked) return {};
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

export function callOptions(
  opts: GatewayOptions,
  agent: Agent,
  target: string,
  ctx: ServerContext,
  parked?: Parked,
): CallOptions {
  agent.used.add(target);
  const token = ctx.mcpReq._meta?.progressToken;
  // The origin lets the bridge send a server's question back to this agent request.
  const out: CallOptions = {
    signal: parked?.signal ?? ctx.mcpReq.signal,
    ...(opts.bridge
      ? {
          origin: opts.bridge.origin(
            agent.server,
            ctx.mcpReq.id,
            parked?.ask,
            capabilities(agent, ctx, parked !== undefined),
          ),
        }
      : {}),
  };
  if (token !== undefined) {
    out.onProgress = (p) => {
      ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
        .catch(() => undefined);
    };
  }
  return out;
}

export function mapUri(server: string, catalog: Catalog): (uri: string) => string {
  return (uri) => catalog.resources.find((r) => r.resource.server === server && r.resource.uri === uri)?.uri ?? uri;
}

/** One gateway tool call for `agent`, with the result cut to the limit. */
export async function callExposed(
  deps: AgentDeps,
  agent: Agent,
  name: string,
  args: Record<string, unknown>,
  ctx: ServerContext,
  parked?: Parked,
): Promise<CallToolResult> {
  const { opts } = deps;
  // A server that lost its connection reconnects on this call, as the host's next use does
  // (dormant.ts); a profile's agent only gets the tools its profile lists.
  const entry =
    deps.catalogOf(agent).tools.find((t) => t.name === name) ??
    (agent.view.profile === undefined ? deps.dormant.find(name, opts) : undefined);
  if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool "${name}"`);
  if (entry.signIn && opts.signIn)
    return callSignIn(opts.host, opts.signIn, entry.tool.server, parked?.signal ?? ctx.mcpReq.signal);
  const call = callOptions(opts, agent, entry.tool.server, ctx, parked);
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
