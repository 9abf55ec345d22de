/** The pure half of the manual sampling reply (src/extension/inspector/sampling.ts): the document and its check. */
import type { CreateMessageRequest } from '@modelcontextprotocol/server';
import { CreateMessageResultSchema } from '@modelcontextprotocol/core';
import { summarizeSamplingRequest } from '../features/sampling.js';

/** The `model` a hand-written reply names: no model wrote it. */
export const MANUAL_REPLY_MODEL = 'user';

const comment = (text: string): string =>
  text
    .split('\n')
    .map((l) => `//   ${l}`)
    .join('\n');

/**
 * The JSONC document the user edits: what the server asked for (messages, system prompt, maxTokens,
 * readable, then the whole request), and a reply in the spec's shape with the text to fill in.
 */
export function samplingReplyDocument(server: string, params: CreateMessageRequest['params']): string {
  const reply = {
    role: 'assistant',
    content: { type: 'text', text: '' },
    model: MANUAL_REPLY_MODEL,
    stopReason: 'endTurn',
  };
  return [
    `// ${server} asks for a model reply (sampling/createMessage). No model is used: write the reply`,
    '// in "text" below and choose Send; Cancel (or closing this editor) answers the server with an error.',
    '// What it asks for:',
    comment(summarizeSamplingRequest(params)),
    '// The whole request:',
    comment(JSON.stringify(params, null, 2)),
    JSON.stringify(reply, null, 2),
    '',
  ].join('\n');
}

/** Checks a reply against the spec's result schema; a message for the user, or undefined when fine. */
export function checkSamplingReply(value: unknown): string | undefined {
  const r = CreateMessageResultSchema.safeParse(value);
  if (r.success) return undefined;
  const first = r.error.issues[0];
  return first ? `"${first.path.join('.') || '(reply)'}": ${first.message}` : 'not a valid sampling reply';
}
