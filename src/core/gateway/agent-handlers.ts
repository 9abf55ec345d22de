/**
 * The request handlers of one agent's server (gateway.ts `createServer`): tools, prompts and
 * resources, answered from the agent's catalogue (its profile's, or the gateway's).
 */
import { CLIENT_INFO_META_KEY, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult, ReadResourceResult, ServerContext } from '@modelcontextprotocol/server';
import { resolveResourceUri } from './catalog.js';
import { getPrompt, readUpstream } from './forward-reads.js';
import { forwardingToolsCall } from './forward.js';
import { searchModeCall, SEARCH_TOOL_NAMES } from './tool-search.js';
import { agentIdentity } from './presence.js';
import { connectingServers } from './instructions.js';
import { callExposed, requestOf, type AgentDeps } from './agent-calls.js';
import { errorText, type Agent } from './agent.js';

export function installHandlers(deps: AgentDeps, agent: Agent): void {
  installTools(deps, agent);
  installPrompts(deps, agent);
  installResources(deps, agent);
}

/** Lists asked for while servers still connect wait a moment for them (firstListWaitMs). */
function listed<T>(deps: AgentDeps, make: () => T): () => Promise<T> {
  return async () => {
    await deps.firstListsReady();
    return make();
  };
}

function installTools(deps: AgentDeps, agent: Agent): void {
  const s = agent.server;
  s.setRequestHandler(
    'tools/list',
    listed(deps, () => ({
      tools: deps.listTools(agent).tools as { name: string; inputSchema: { type: 'object' } }[],
    })),
  );
  const toolsCall = async (
    name: string,
    args: Record<string, unknown>,
    ctx: ServerContext,
  ): Promise<CallToolResult> => {
    const listing = SEARCH_TOOL_NAMES.includes(name) ? deps.listTools(agent) : undefined;
    if (listing?.search) {
      const connecting = connectingServers(deps.opts.host.servers(), deps.shownTo(agent.view));
      const step = searchModeCall(name, args, listing.search, listing.definition, connecting);
      if ('result' in step) return step.result;
      ({ name, arguments: args } = step.call);
    }
    deps.paths.full++;
    if (!agent.modern) return callExposed(deps, agent, name, args, requestOf(ctx));
    // The upstream call may outlive this exchange (input-bridge.ts).
    const requestState = ctx.mcpReq.requestState<string>();
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    return (await deps.parked.run(
      {
        signal: ctx.mcpReq.signal,
        // Only the agent a requestState was given to may present it (input-bridge.ts).
        owner: agent.connectionId ?? agentIdentity(envelope?.[CLIENT_INFO_META_KEY], agent.view),
        ...(requestState !== undefined ? { requestState } : {}),
        ...(ctx.mcpReq.inputResponses ? { inputResponses: ctx.mcpReq.inputResponses } : {}),
      },
      (ask, signal) => callExposed(deps, agent, name, args, requestOf(ctx), { ask, signal }),
    )) as CallToolResult;
  };
  // A legacy agent's call skips the SDK server's parse of request and result (forward.ts).
  if (agent.modern)
    s.setRequestHandler('tools/call', (req, ctx) => toolsCall(req.params.name, req.params.arguments ?? {}, ctx));
  else s.fallbackRequestHandler = forwardingToolsCall((c, ctx) => toolsCall(c.name, c.arguments, ctx));
}

function installPrompts(deps: AgentDeps, agent: Agent): void {
  const s = agent.server;
  s.setRequestHandler(
    'prompts/list',
    listed(deps, () => ({
      prompts: deps.catalogOf(agent).prompts.map(({ name, prompt }) => ({
        name,
        ...(prompt.title !== undefined ? { title: prompt.title } : {}),
        ...(prompt.description !== undefined ? { description: prompt.description } : {}),
        arguments: prompt.arguments,
      })),
    })),
  );
  s.setRequestHandler('prompts/get', (req, ctx) => {
    const entry = deps.catalogOf(agent).prompts.find((p) => p.name === req.params.name);
    if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown prompt "${req.params.name}"`);
    deps.paths.full++;
    return getPrompt(deps, agent, entry.prompt, req.params.arguments ?? {}, requestOf(ctx)) as Promise<never>;
  });
}

function installResources(deps: AgentDeps, agent: Agent): void {
  const s = agent.server;
  s.setRequestHandler(
    'resources/list',
    listed(deps, () => ({
      resources: deps.catalogOf(agent).resources.map(({ uri, resource: r }) => ({
        uri,
        name: r.name,
        ...(r.title !== undefined ? { title: r.title } : {}),
        ...(r.description !== undefined ? { description: r.description } : {}),
        ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
      })),
    })),
  );
  s.setRequestHandler(
    'resources/templates/list',
    listed(deps, () => ({
      resourceTemplates: deps.catalogOf(agent).templates.map(({ uriTemplate, template: t }) => ({
        uriTemplate,
        name: t.name,
        ...(t.title !== undefined ? { title: t.title } : {}),
        ...(t.description !== undefined ? { description: t.description } : {}),
        ...(t.mimeType !== undefined ? { mimeType: t.mimeType } : {}),
      })),
    })),
  );
  s.setRequestHandler('resources/read', (req, ctx) => readResource(deps, agent, req.params.uri, ctx));
}

async function readResource(
  deps: AgentDeps,
  agent: Agent,
  uri: string,
  ctx: ServerContext,
): Promise<ReadResourceResult> {
  let kept;
  try {
    kept = await deps.resultsOf(agent).read(uri);
  } catch (err) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, errorText(err));
  }
  // Exactly one of text and blob is set on each item (result-limit.ts).
  if (kept) return { contents: kept as ReadResourceResult['contents'] };
  const target = resolveResourceUri(deps.catalogOf(agent), uri);
  if (!target) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no exposed server offers the resource ${uri}`);
  deps.paths.full++;
  return readUpstream(deps, agent, uri, target, requestOf(ctx));
}
