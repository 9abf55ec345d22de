import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { formatLogMessage, loggerLevelFor } from '../../../src/core/features/logging.js';
import { USER_REJECTED, pickModel, summarizeSamplingRequest, withSamplingConsent } from '../../../src/core/features/sampling.js';

test('log levels map onto the host logger; unusual ones keep their label; logger name and JSON data shown', () => {
  assert.deepEqual(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].map((l) => loggerLevelFor(l as never)), ['debug', 'info', 'info', 'warn', 'error', 'error', 'error', 'error']);
  assert.equal(formatLogMessage({ level: 'warning', logger: 'db', data: 'slow' }), '[db] slow');
  assert.equal(formatLogMessage({ level: 'critical', data: { a: 1 } }), 'critical: {"a":1}');
  assert.equal(formatLogMessage({ level: 'info', data: 'a\u202Eb' }), 'ab');
  assert.match(formatLogMessage({ level: 'info', data: 'x'.repeat(9000) }), /… \(9000 characters\)$/);
});

test('the summary shows system prompt, every message, the token cap, hints and offered tools', () => {
  const s = summarizeSamplingRequest({
    systemPrompt: 'Be brief.',
    messages: [
      { role: 'user', content: { type: 'text', text: 'What is 2+2?' } },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'calc', input: {} }] },
      { role: 'user', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } },
    ],
    maxTokens: 64,
    modelPreferences: { hints: [{ name: 'claude' }] },
    tools: [{ name: 'calc', inputSchema: { type: 'object' } }],
  });
  assert.equal(s, 'System prompt: Be brief.\nuser: What is 2+2?\nassistant: (tool use: calc)\nuser: (image image/png)\n(up to 64 tokens; model hints: claude; tools offered to the model: calc)');
});

test('pickModel: the first hint that matches id, name or family; else the first model', () => {
  const models = [
    { id: 'gpt-4o', name: 'GPT-4o', family: 'gpt-4o' },
    { id: 'claude-sonnet-4', name: 'Claude Sonnet 4', family: 'claude-sonnet' },
  ];
  assert.equal(pickModel(models, [{ name: 'gemini' }, { name: 'sonnet' }])?.id, 'claude-sonnet-4');
  assert.equal(pickModel(models, [{ name: 'Claude' }])?.id, 'claude-sonnet-4');
  assert.equal(pickModel(models, undefined)?.id, 'gpt-4o');
  assert.equal(pickModel([], [{ name: 'x' }]), undefined);
});

test('consent: a dismissed prompt is a denial with the spec\'s code, and the model is never reached', async () => {
  let reached = 0;
  const port = withSamplingConsent(
    { createMessage: () => (reached++, Promise.resolve({ role: 'assistant', model: 'm', content: { type: 'text', text: '' } })) },
    { isAlwaysAllowed: () => false, allowAlways: () => Promise.resolve(), revoke: () => Promise.resolve() },
    { ask: () => Promise.resolve(undefined) },
  );
  const err = await port.createMessage('srv', { messages: [], maxTokens: 1 }, new AbortController().signal).catch((e: unknown) => e);
  assert.ok(err instanceof McpError);
  assert.equal(err.code, USER_REJECTED);
  assert.match(err.message, /declined the sampling request from srv/);
  assert.equal(reached, 0);
});
