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

test('sampling: an agent call in flight that declared sampling gets it; otherwise the editor’s port (the fallback) does', async () => {
  const editorAsked: string[] = [];
  const editor = {
    createMessage: (server: string) => {
      editorAsked.push(server);
      return Promise.resolve({ role: 'assistant' as const, model: 'editor', content: { type: 'text' as const, text: 'from the editor' } });
    },
  };
  const bridge = new GatewayBridge(undefined, editor);
  const agentAsked: unknown[] = [];
  const capable = {
    getClientCapabilities: () => ({ sampling: {} }),
    createMessage: (_p: unknown, options: unknown) => (agentAsked.push(options), Promise.resolve({ role: 'assistant', model: 'agent', content: { type: 'text', text: 'from the agent' } })),
  } as unknown as Server;
  const params = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }], maxTokens: 5 };
  const call = bridge.track('s', capable, 3);
  assert.equal((await bridge.createMessage('s', params)).model, 'agent');
  assert.deepEqual(agentAsked, [{ relatedRequestId: 3 }]);
  // No agent call on this server: the editor's consent and model path.
  assert.equal((await bridge.createMessage('t', params)).model, 'editor');
  call.dispose();
  const incapable = bridge.track('s', fakeAgent({}).agent, 4);
  assert.equal((await bridge.createMessage('s', params)).model, 'editor');
  incapable.dispose();
  assert.deepEqual(editorAsked, ['t', 's']);
});

test('featureOptions: the bridge is the one sampling port, and log lines reach both the base hook and the agents', () => {
  const bridge = new GatewayBridge();
  const base: string[] = [];
  const agents: string[] = [];
  bridge.onServerLog((e) => agents.push(`${e.server}:${String(e.params.data)}`));
  const f = bridge.featureOptions({ onServerLog: (s, m) => base.push(`${s}:${String(m.data)}`), pingIntervalMs: 5 });
  assert.equal(f.sampling, bridge);
  assert.equal(f.pingIntervalMs, 5);
  f.onServerLog?.('s', { level: 'info', data: 'line' });
  assert.deepEqual(base, ['s:line']);
  assert.deepEqual(agents, ['s:line']);
});
