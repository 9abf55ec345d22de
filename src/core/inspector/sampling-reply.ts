/** The pure half of the manual sampling reply (src/extension/inspector/sampling.ts): the document and its check. */
import { CreateMessageResultSchema, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';

/** The JSONC document the user edits: the request as comments, a reply to fill in. */
export function samplingReplyDocument(server: string, params: CreateMessageRequest['params']): string {
  const request = JSON.stringify(params, null, 2)
    .split('\n')
    .map((l) => `//   ${l}`)
    .join('\n');
  const reply = { role: 'assistant', content: { type: 'text', text: '' }, model: 'written-by-user', stopReason: 'endTurn' };
  return [
    `// ${server} asks for a model reply (sampling/createMessage). No model is used: write the reply`,
    '// below and choose Send; Cancel declines the request.',
    '// The request:',
    request,
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

