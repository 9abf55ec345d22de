/**
 * Questions servers ask while an agent's request runs through the gateway go back to that agent.
 * The host is created with this bridge as its elicitation port and, through `featureOptions`, as
 * its one sampling and server-log port. Every request the gateway makes for an agent carries an
 * origin from `origin()` (CallOptions.origin); the host hands a question the origins of the
 * requests in flight on the asking server (connection/in-flight.ts). The question goes to an agent
 * only when they prove it is that agent's: it came on the response stream of that agent's request
 * or named its task, or every request in flight there is that agent's, and the agent declared the
 * capability. Otherwise (a palette call, two agents on the same server at once, an agent without
 * the capability) it goes to the fallback, the editor's own UI (sampling: consent, then a language
 * model or the user's own reply): never to an agent it may not belong to.
 */
import { inputRequired, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type {
  ClientCapabilities,
  Server,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitResult,
  LoggingMessageNotification,
  RequestId,
} from '@modelcontextprotocol/server';
import type { CallOrigin, ElicitationPort, RelatedCalls } from '../host-api.js';
import type { FeatureOptions, SamplingPort } from '../features/types.js';
import { Emitter } from '../events.js';
import type { AskAgent } from './input-bridge.js';

type ElicitRequest = Parameters<ElicitationPort['elicit']>[1];

/** One agent request, as an origin the host passes back with a server's question. */
class AgentRequest {
  constructor(
    readonly agent: Server,
    readonly requestId: RequestId,
    /** A modern agent's call: questions go back as `input_required` (input-bridge.ts), not as requests. */
    readonly ask?: AskAgent,
    /** Declared at `initialize` (2025) or on this very request's `_meta` envelope (2026-07-28). */
    readonly capabilities?: ClientCapabilities,
  ) {}
}

/**
 * The agent request a question belongs to, if it can be known: the one the wire names (its
 * stream, its task), else the newest when every request in flight on the server is the same agent's.
 */
export function owningRequest(related: RelatedCalls | undefined): AgentRequest | undefined {
  if (!related) return undefined;
  if (related.owner) return related.owner.origin instanceof AgentRequest ? related.owner.origin : undefined;
  const callers = related.callers;
  const last = callers[callers.length - 1];
  if (!(last instanceof AgentRequest)) return undefined;
  return callers.every((c) => c instanceof AgentRequest && c.agent === last.agent) ? last : undefined;
}

export class GatewayBridge implements ElicitationPort, SamplingPort {
  private readonly logs = new Emitter<{ server: string; params: LoggingMessageNotification['params'] }>();
  /** Every log line any server sends; the gateway passes them on to its agents. */
  readonly onServerLog = this.logs.event;

  /**
   * @param fallback asked when no agent can answer (the editor's dialogs); none: decline.
   * @param samplingFallback serves sampling when no agent can (the editor's consent and model); none: a clear error.
   */
  constructor(
    private readonly fallback?: ElicitationPort,
    private readonly samplingFallback?: SamplingPort,
  ) {}

  /**
   * The host's feature options with this bridge as the one sampling and server-log entry point
   * (the editor's own sampling port is the constructor's fallback); `base.onServerLog` still hears every line.
   */
  featureOptions(base: FeatureOptions = {}): FeatureOptions {
    const own = base.onServerLog;
    return {
      ...base,
      sampling: this,
      onServerLog: (server, message) => {
        own?.(server, message);
        this.log(server, message as LoggingMessageNotification['params']);
      },
    };
  }

  /** The origin to pass (CallOptions.origin) with a host request made for `agent`'s request `requestId`. */
  origin(agent: Server, requestId: RequestId, ask?: AskAgent, capabilities?: ClientCapabilities): CallOrigin {
    return new AgentRequest(agent, requestId, ask, capabilities ?? agent.getClientCapabilities());
  }

  async elicit(
    server: string,
    request: ElicitRequest,
    signal?: AbortSignal,
    related?: RelatedCalls,
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }> {
    const target = owningRequest(related);
    const caps = target?.capabilities?.elicitation as { form?: object; url?: object } | undefined;
    // An empty `elicitation: {}` is form-only (the 2025-06 shape); URL mode needs an explicit `url`.
    const canAnswer =
      caps !== undefined &&
      (request.mode === 'url' ? caps.url !== undefined : caps.form !== undefined || caps.url === undefined);
    if (target?.ask && canAnswer) {
      const asked =
        request.mode === 'url'
          ? inputRequired.elicitUrl({ message: request.message, url: request.url })
          : inputRequired.elicit({
              mode: 'form',
              message: `[${server}] ${request.message}`,
              requestedSchema: request.requestedSchema as never,
            });
      const answer = (await target.ask(asked, signal)) as ElicitResult;
      return {
        action: answer.action,
        ...(answer.content ? { content: answer.content as Record<string, unknown> } : {}),
      };
    }
    if (target && canAnswer) {
      const params =
        request.mode === 'url'
          ? { mode: 'url' as const, message: request.message, url: request.url, elicitationId: request.elicitationId }
          : {
              mode: 'form' as const,
              message: `[${server}] ${request.message}`,
              requestedSchema: request.requestedSchema as never,
            };
      const answer: ElicitResult = await target.agent.elicitInput(params, {
        relatedRequestId: target.requestId,
        ...(signal ? { signal } : {}),
      });
      return {
        action: answer.action,
        ...(answer.content ? { content: answer.content as Record<string, unknown> } : {}),
      };
    }
    if (this.fallback) return this.fallback.elicit(server, request, signal, related);
    return { action: 'decline' };
  }

  async createMessage(
    server: string,
    params: CreateMessageRequest['params'],
    signal?: AbortSignal,
    related?: RelatedCalls,
  ): Promise<CreateMessageResult> {
    const target = owningRequest(related);
    if (target?.capabilities?.sampling) {
      if (target.ask) return (await target.ask(inputRequired.createMessage(params), signal)) as CreateMessageResult;
      return (await target.agent.createMessage(params, {
        relatedRequestId: target.requestId,
        ...(signal ? { signal } : {}),
      })) as CreateMessageResult;
    }
    if (this.samplingFallback)
      return this.samplingFallback.createMessage(server, params, signal ?? new AbortController().signal, related);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `no model is available to ${server}: sampling works only during a request from one agent that supports it`,
    );
  }

  /** Every server log line, passed on to the gateway's agents (wired by `featureOptions`). */
  readonly log = (server: string, params: LoggingMessageNotification['params']): void => {
    this.logs.fire({ server, params });
  };
}
