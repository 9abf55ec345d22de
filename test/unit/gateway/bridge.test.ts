import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitationPort } from '../../../src/core/host-api.js';
import { GatewayBridge } from '../../../src/core/gateway/bridge.js';

/** The two methods of an SDK Server the bridge uses, recording what it was asked. */
function fakeAgent(capabilities: Record<string, unknown>): { agent: Server; asked: unknown[] } {
  const asked: unknown[] = [];
  const agent = {
    getClientCapabilities: () => capabilities,
    elicitInput: (params: unknown, options: unknown) => {
      asked.push({ params, options });
      return Promise.resolve({ action: 'accept', content: { from: 'agent' } });
    },
  } as unknown as Server;
  return { agent, asked };
}

function fallback(): ElicitationPort & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    elicit: (server) => {
      asked.push(server);
      return Promise.resolve({ action: 'decline' });
    },
  };
}

const form = { mode: 'form' as const, message: 'Name?', requestedSchema: { type: 'object', properties: {} } };
const url = { mode: 'url' as const, message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' };

test('a question goes to the newest agent request on that server, tied to it; after it ends, to the fallback', async () => {
  const ui = fallback();
  const bridge = new GatewayBridge(ui);
  const older = fakeAgent({ elicitation: {} });
  const newer = fakeAgent({ elicitation: { form: {} } });
  const a = bridge.track('s', older.agent, 1);
  const b = bridge.track('s', newer.agent, 7);
  assert.deepEqual(await bridge.elicit('s', form), { action: 'accept', content: { from: 'agent' } });
  assert.equal(newer.asked.length, 1);
  assert.deepEqual((newer.asked[0] as { options: unknown }).options, { relatedRequestId: 7 });
  assert.equal(older.asked.length, 0);
  // Another server's questions are not the agent's business.
  assert.deepEqual(await bridge.elicit('other', form), { action: 'decline' });
  b.dispose();
  a.dispose();
  await bridge.elicit('s', form);
  assert.deepEqual(ui.asked, ['other', 's']);
});

test('URL mode needs the agent to declare url; an empty elicitation capability means form only', async () => {
  const ui = fallback();
  const bridge = new GatewayBridge(ui);
  const formOnly = fakeAgent({ elicitation: {} });
  bridge.track('s', formOnly.agent, 1);
  await bridge.elicit('s', url);
  assert.deepEqual(ui.asked, ['s']);
  await bridge.elicit('s', form);
  assert.equal(formOnly.asked.length, 1);
});

test('without a fallback a question nobody can answer is declined; sampling without a capable agent is refused', async () => {
  const bridge = new GatewayBridge();
  const none = fakeAgent({});
  bridge.track('s', none.agent, 1);
  assert.deepEqual(await bridge.elicit('s', form), { action: 'decline' });
  await assert.rejects(bridge.createMessage('s', { messages: [], maxTokens: 1 }), /no model is available to s/);
});
