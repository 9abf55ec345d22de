/**
 * Questions servers ask while an agent's request runs through the gateway go back to that agent.
 * The host is created with this bridge as its elicitation port and, through `featureOptions`, as
 * its one sampling and server-log port; the gateway tells it which agent request is running on
 * which server. A question from a server with an agent request in flight goes to the newest such
 * agent when it declared the capability; every other question (a palette call, an agent without
 * the capability) goes to the fallback: the editor's own UI (consent, then a language model).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type CreateMessageRequest, type CreateMessageResult, type ElicitResult, type LoggingMessageNotification, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationPort } from '../host-api.js';
import type { FeatureOptions, SamplingPort } from '../features/types.js';
import { Emitter } from '../events.js';
import type { Disposable } from '../ports.js';

type ElicitRequest = Parameters<ElicitationPort['elicit']>[1];

interface InFlight {
  agent: Server;
  requestId: RequestId;
}

export class GatewayBridge implements ElicitationPort, SamplingPort {
  private readonly inflight = new Map<string, InFlight[]>();
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

  /** Marks an agent request as running on `server` until the returned disposable is disposed. */
  track(server: string, agent: Server, requestId: RequestId): Disposable {
    const item: InFlight = { agent, requestId };
    const list = this.inflight.get(server) ?? [];
    list.push(item);
    this.inflight.set(server, list);
    return {
      dispose: () => {
        const l = this.inflight.get(server);
        if (!l) return;
        const i = l.indexOf(item);
        if (i >= 0) l.splice(i, 1);
        if (l.length === 0) this.inflight.delete(server);
      },
    };
  }

  private newest(server: string): InFlight | undefined {
    const l = this.inflight.get(server);
    return l?.[l.length - 1];
  }

  async elicit(server: string, request: ElicitRequest, signal?: AbortSignal): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }> {
    const target = this.newest(server);
    const caps = target?.agent.getClientCapabilities()?.elicitation as { form?: object; url?: object } | undefined;
    // An empty `elicitation: {}` is form-only (the 2025-06 shape); URL mode needs an explicit `url`.
    const canAnswer = caps !== undefined && (request.mode === 'url' ? caps.url !== undefined : caps.form !== undefined || caps.url === undefined);
    if (target && canAnswer) {
      const params =
        request.mode === 'url'
          ? { mode: 'url' as const, message: request.message, url: request.url, elicitationId: request.elicitationId }
          : { mode: 'form' as const, message: `[${server}] ${request.message}`, requestedSchema: request.requestedSchema as never };
      const answer: ElicitResult = await target.agent.elicitInput(params, { relatedRequestId: target.requestId, ...(signal ? { signal } : {}) });
      return { action: answer.action, ...(answer.content ? { content: answer.content as Record<string, unknown> } : {}) };
    }
    if (this.fallback) return this.fallback.elicit(server, request, signal);
    return { action: 'decline' };
  }

  async createMessage(server: string, params: CreateMessageRequest['params'], signal?: AbortSignal): Promise<CreateMessageResult> {
    const target = this.newest(server);
    if (target?.agent.getClientCapabilities()?.sampling) {
      return (await target.agent.createMessage(params, { relatedRequestId: target.requestId, ...(signal ? { signal } : {}) })) as CreateMessageResult;
    }
    if (this.samplingFallback) return this.samplingFallback.createMessage(server, params, signal ?? new AbortController().signal);
    throw new McpError(ErrorCode.InvalidRequest, `no model is available to ${server}: sampling works only during a request from an agent that supports it`);
  }

  /** Every server log line, passed on to the gateway's agents (wired by `featureOptions`). */
  readonly log = (server: string, params: LoggingMessageNotification['params']): void => {
    this.logs.fire({ server, params });
  };
}
