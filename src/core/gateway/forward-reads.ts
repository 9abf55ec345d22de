/**
 * An agent's `resources/read` and `prompts/get` of an upstream server, on either path (the SDK
 * server's handlers, agent-handlers.ts, or the fast path, fast-path.ts): the server's wire result
 * (McpHost.forwardResourceRead, forwardPrompt), with only what the gateway must change: the URIs
 * as the agent sees them. A failure is the gateway's protocol error, as before.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import type { HostPrompt } from '../host-api.js';
import { wrapUri } from './catalog.js';
import { withMappedUri } from './forward.js';
import type { WireItem } from './result-limit.js';
import { callOptions, mapUri, type AgentDeps, type AgentRequest } from './agent-calls.js';
import { errorText, type Agent } from './agent.js';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function protocolError(err: unknown): ProtocolError {
  return err instanceof ProtocolError ? err : new ProtocolError(ProtocolErrorCode.InternalError, errorText(err));
}

/** `uri` (as the agent names it) read from `target` (the server and its own URI). */
export async function readUpstream(
  deps: AgentDeps,
  agent: Agent,
  uri: string,
  target: { server: string; uri: string },
  req: AgentRequest,
): Promise<ReadResourceResult> {
  const opts = callOptions(deps.opts, agent, target.server, req);
  try {
    const r = await deps.opts.host.forwardResourceRead(target.server, target.uri, opts);
    const wrapped = uri !== target.uri;
    // A wrapped URI comes back wrapped, so the agent can match the answer to its question.
    const map = wrapped ? (u: string) => wrapUri(target.server, u) : mapUri(target.server, deps.catalogOf(agent));
    const contents = r.contents.map((c) => {
      if (!isRecord(c) || typeof c.uri !== 'string') return c;
      const mapped = map(c.uri);
      return mapped === c.uri ? c : { ...c, uri: mapped };
    });
    return { contents } as ReadResourceResult;
  } catch (err) {
    throw protocolError(err);
  }
}

/** The upstream prompt `prompt` with `args`, its content's URIs as the agent sees them. */
export async function getPrompt(
  deps: AgentDeps,
  agent: Agent,
  prompt: HostPrompt,
  args: Record<string, string>,
  req: AgentRequest,
): Promise<GetPromptResult> {
  const server = prompt.server;
  const opts = callOptions(deps.opts, agent, server, req);
  try {
    const r = await deps.opts.host.forwardPrompt(server, prompt.name, args, opts);
    const map = mapUri(server, deps.catalogOf(agent));
    const messages = r.messages.map((m) =>
      isRecord(m) && isRecord(m.content) ? { ...m, content: withMappedUri(m.content as WireItem, map) } : m,
    );
    return { ...(r.description !== undefined ? { description: r.description } : {}), messages } as GetPromptResult;
  } catch (err) {
    throw protocolError(err);
  }
}
