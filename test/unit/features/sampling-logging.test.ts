import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ProtocolError } from '@modelcontextprotocol/server';
import { formatLogMessage, loggerLevelFor } from '../../../src/core/features/logging.js';
import {
  NO_MODEL,
  USER_REJECTED,
  pickModel,
  summarizeSamplingRequest,
  withSamplingConsent,
} from '../../../src/core/features/sampling.js';

test('log levels map onto the host logger; unusual ones keep their label; logger name and JSON data shown', () => {
  assert.deepEqual(
    ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].map((l) =>
      loggerLevelFor(l as never),
    ),
    ['debug', 'info', 'info', 'warn', 'error', 'error', 'error', 'error'],
  );
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
  assert.equal(
    s,
    'System prompt: Be brief.\nuser: What is 2+2?\nassistant: (tool use: calc)\nuser: (image image/png)\n(up to 64 tokens; model hints: claude; tools offered to the model: calc)',
  );
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

test("consent: a dismissed prompt is a denial with the spec's code, and the model is never reached", async () => {
  let reached = 0;
  const port = withSamplingConsent(
    {
      createMessage: () => (
        reached++,
        Promise.resolve({ role: 'assistant', model: 'm', content: { type: 'text', text: '' } })
      ),
    },
    { isAlwaysAllowed: () => false, allowAlways: () => Promise.resolve(), revoke: () => Promise.resolve() },
    { ask: () => Promise.resolve(undefined) },
  );
  const err = await port
    .createMessage('srv', { messages: [], maxTokens: 1 }, new AbortController().signal)
    .catch((e: unknown) => e);
  assert.ok(err instanceof ProtocolError);
  assert.equal(err.code, USER_REJECTED);
  assert.match(err.message, /declined the sampling request from srv/);
  assert.equal(reached, 0);
});

describe('sampling without a model (the user writes the reply)', () => {
  const params = {
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }],
    maxTokens: 9,
  };
  const reply = {
    role: 'assistant' as const,
    model: 'user',
    stopReason: 'endTurn',
    content: { type: 'text' as const, text: 'written' },
  };
  const noModel = {
    createMessage: () => Promise.reject(new ProtocolError(NO_MODEL, 'No language model is available here.')),
  };
  const never = {
    isAlwaysAllowed: () => false,
    allowAlways: () => Promise.reject(new Error('not remembered')),
    revoke: () => Promise.resolve(),
  };
  const always = { ...never, isAlwaysAllowed: () => true };
  const writer = (answer: typeof reply | undefined) => {
    const asked: string[] = [];
    return { asked, write: (server: string) => (asked.push(server), Promise.resolve(answer)) };
  };
  const signal = () => new AbortController().signal;

  test('"Write the reply myself" in the consent prompt: the model is never reached and the written reply is the result', async () => {
    let reached = 0;
    const w = writer(reply);
    const port = withSamplingConsent(
      { createMessage: () => (reached++, Promise.reject(new Error('no'))) },
      never,
      { ask: () => Promise.resolve('write') },
      w,
    );
    assert.deepEqual(await port.createMessage('srv', params, signal()), reply);
    assert.deepEqual(w.asked, ['srv']);
    assert.equal(reached, 0);
  });

  test("cancelling the written reply is a decline with the spec's code", async () => {
    const port = withSamplingConsent(noModel, never, { ask: () => Promise.resolve('write') }, writer(undefined));
    const err = await port.createMessage('srv', params, signal()).catch((e: unknown) => e);
    assert.ok(err instanceof ProtocolError);
    assert.equal(err.code, USER_REJECTED);
    assert.match(err.message, /cancelled writing the reply to the sampling request from srv/);
  });

  test('no model: the user is offered to write the reply, with the reason; accepting sends their reply', async () => {
    const reasons: string[] = [];
    const w = writer(reply);
    const port = withSamplingConsent(
      noModel,
      always,
      {
        ask: () => Promise.reject(new Error('not asked')),
        offerManualReply: (_s, reason) => (reasons.push(reason), Promise.resolve(true)),
      },
      w,
    );
    assert.deepEqual(await port.createMessage('srv', params, signal()), reply);
    assert.deepEqual(reasons, ['No language model is available here.']);
  });

  test('no model and the offer dismissed, or the editor cancelled: the server gets the no-model error as before', async () => {
    for (const [accept, answer] of [
      [false, reply],
      [true, undefined],
    ] as const) {
      const w = writer(answer);
      const port = withSamplingConsent(
        noModel,
        never,
        { ask: () => Promise.resolve('once'), offerManualReply: () => Promise.resolve(accept) },
        w,
      );
      const err = await port.createMessage('srv', params, signal()).catch((e: unknown) => e);
      assert.ok(err instanceof ProtocolError);
      assert.equal(err.code, NO_MODEL);
      assert.match(err.message, /No language model is available here/);
      assert.equal(w.asked.length, accept ? 1 : 0);
    }
  });

  test('other model errors are not turned into an offer', async () => {
    let offered = 0;
    const port = withSamplingConsent(
      { createMessage: () => Promise.reject(new Error('boom')) },
      always,
      { ask: () => Promise.resolve('once'), offerManualReply: () => (offered++, Promise.resolve(true)) },
      writer(reply),
    );
    await assert.rejects(port.createMessage('srv', params, signal()), /boom/);
    assert.equal(offered, 0);
  });
});
