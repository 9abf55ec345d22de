import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonDocument } from '../../../src/core/calls/json-document.js';
import {
  MANUAL_REPLY_MODEL,
  checkSamplingReply,
  samplingReplyDocument,
} from '../../../src/core/inspector/sampling-reply.js';

const params = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'What is 2+2?' } }],
  maxTokens: 50,
  systemPrompt: 'Be brief',
};

test('the reply document shows the request as comments and parses to a valid reply once text is written', () => {
  const doc = samplingReplyDocument('calc', params);
  assert.match(doc, /calc asks for a model reply/);
  assert.match(doc, /\/\/ +"text": "What is 2\+2\?"/);
  const parsed = parseJsonDocument(doc);
  assert.ok(!('error' in parsed), JSON.stringify(parsed));
  assert.equal(checkSamplingReply(parsed.value), undefined);
  assert.deepEqual((parsed.value as { content: unknown }).content, { type: 'text', text: '' });
});

test("the document shows what the server asked for (system prompt, messages, maxTokens) and a reply in the spec's shape", () => {
  const doc = samplingReplyDocument('calc', params);
  assert.match(doc, /^\/\/ +System prompt: Be brief$/m);
  assert.match(doc, /^\/\/ +user: What is 2\+2\?$/m);
  assert.match(doc, /^\/\/ +\(up to 50 tokens\)$/m);
  const parsed = parseJsonDocument(doc);
  assert.ok(!('error' in parsed));
  assert.deepEqual(parsed.value, {
    role: 'assistant',
    content: { type: 'text', text: '' },
    model: MANUAL_REPLY_MODEL,
    stopReason: 'endTurn',
  });
  assert.equal(MANUAL_REPLY_MODEL, 'user');
});

test('checkSamplingReply names what is wrong with a bad reply', () => {
  assert.match(checkSamplingReply({ role: 'assistant', content: { type: 'text', text: 'x' } }) ?? '', /model/);
  assert.match(checkSamplingReply({ role: 'robot', content: { type: 'text', text: 'x' }, model: 'm' }) ?? '', /role/);
  assert.ok(checkSamplingReply('four'));
});
