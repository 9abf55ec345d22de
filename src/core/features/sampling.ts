/**
 * Sampling consent: nothing a server wants to send reaches a model before the user said yes.
 * The first request from a server shows what it would send and asks Allow once / Always for this
 * server / Write the reply myself / Deny; "Always" is remembered per server (revocable), a denial
 * answers only that request. Sampling without a model (as the MCP Inspector allows):
 * the user may write the reply instead, by choice or when no language model is available.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';
import type { SamplingPort } from './types.js';

/** Error code the spec's examples use for a request the user rejected. */
export const USER_REJECTED = -1;
/** No model to serve the request: an internal error of the client, with a message saying so. */
export const NO_MODEL = -32603;

/** 'write': the user writes the reply themselves; no model sees the request. */
export type ConsentAnswer = 'once' | 'always' | 'write' | 'deny';

/** Where "Always for this server" is remembered (a setting in the editor). */
export interface SamplingConsentStore {
  isAlwaysAllowed(server: string): boolean;
  allowAlways(server: string): Promise<void>;
  revoke(server: string): Promise<void>;
}

/** Asks the user; undefined (dismissed) counts as Deny. */
export interface SamplingConsentPrompt {
  ask(server: string, summary: string, signal: AbortSignal): Promise<ConsentAnswer | undefined>;
  /** The model could not serve the request (`reason`): offer to write the reply; true when the user accepts. */
  offerManualReply?(server: string, reason: string, signal: AbortSignal): Promise<boolean>;
}

/** Lets the user write the reply; undefined when they cancel. */
export interface ManualSamplingReply {
  write(
    server: string,
    params: CreateMessageRequestParams,
    signal: AbortSignal,
  ): Promise<CreateMessageResult | undefined>;
}

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b: { type?: string; text?: string; name?: string; mimeType?: string }) => {
      if (b?.type === 'text') return b.text ?? '';
      if (b?.type === 'tool_use') return `(tool use: ${b.name ?? '?'})`;
      if (b?.type === 'tool_result') return '(tool result)';
      return `(${b?.type ?? 'content'}${b?.mimeType ? ` ${b.mimeType}` : ''})`;
    })
    .join(' ');
}

/** What the server wants to send, as the user is shown it before deciding. */
export function summarizeSamplingRequest(p: CreateMessageRequestParams): string {
  const lines: string[] = [];
  if (p.systemPrompt) lines.push(`System prompt: ${p.systemPrompt}`);
  for (const m of p.messages) lines.push(`${m.role}: ${textOf(m.content)}`);
  const hints = p.modelPreferences?.hints?.map((h) => h.name).filter(Boolean);
  const extra = [`up to ${p.maxTokens} tokens`];
  if (hints?.length) extra.push(`model hints: ${hints.join(', ')}`);
  if (p.tools?.length) extra.push(`tools offered to the model: ${p.tools.map((t) => t.name).join(', ')}`);
  lines.push(`(${extra.join('; ')})`);
  return lines.join('\n');
}

/**
 * Wraps a model port so every request passes the user's consent first. With `manual`, the user may
 * write the reply instead (their choice in the prompt, or offered when the model fails with
 * NO_MODEL); cancelling that answers the server with the error it would have had without the offer.
 */
export function withSamplingConsent(
  model: SamplingPort,
  store: SamplingConsentStore,
  prompt: SamplingConsentPrompt,
  manual?: ManualSamplingReply,
): SamplingPort {
  return {
    async createMessage(
      server: string,
      params: CreateMessageRequestParams,
      signal: AbortSignal,
    ): Promise<CreateMessageResult> {
      if (!store.isAlwaysAllowed(server)) {
        const answer = await prompt.ask(server, summarizeSamplingRequest(params), signal);
        if (answer === 'write' && manual) {
          const reply = await manual.write(server, params, signal);
          if (reply) return reply;
          throw new ProtocolError(
            USER_REJECTED,
            `The user cancelled writing the reply to the sampling request from ${server}.`,
          );
        }
        if (answer === 'always') await store.allowAlways(server);
        else if (answer !== 'once')
          throw new ProtocolError(USER_REJECTED, `The user declined the sampling request from ${server}.`);
      }
      try {
        return await model.createMessage(server, params, signal);
      } catch (e) {
        if (
          !manual ||
          !prompt.offerManualReply ||
          !(e instanceof ProtocolError) ||
          e.code !== NO_MODEL ||
          signal.aborted
        )
          throw e;
        if (!(await prompt.offerManualReply(server, e.message.replace(/^MCP error -?\d+: /, ''), signal))) throw e;
        const reply = await manual.write(server, params, signal);
        if (reply) return reply;
        throw e;
      }
    },
  };
}

/** The model picked for a request: the first available whose id, name or family contains a hint. */
export function pickModel<M extends { id: string; name?: string; family?: string }>(
  models: readonly M[],
  hints: readonly { name?: string }[] | undefined,
): M | undefined {
  for (const h of hints ?? []) {
    const want = h.name?.toLowerCase();
    if (!want) continue;
    const hit = models.find((m) => [m.id, m.name, m.family].some((x) => x?.toLowerCase().includes(want)));
    if (hit) return hit;
  }
  return models[0];
}
