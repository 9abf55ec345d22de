import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from '@modelcontextprotocol/server';
import type { ElicitationPort, RelatedCalls } from '../../../src/core/host-api.js';
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

/** What the host hands the port: the origins of the requests in flight on the asking server. */
function related(callers: (object | undefined)[], byTask?: object): RelatedCalls {
  return byTask ? { callers, owner: { origin: byTask, via: 'task' } } : { callers };
}

test('a question goes to the agent whose request is the only one in flight on that server, tied to that request', async () => {
  const ui = fallback();
  const bridge = new GatewayBridge(ui);
  const a = fakeAgent({ elicitation: { form: {} } });
  assert.deepEqual(await bridge.elicit('s', form, undefined, related([bridge.origin(a.agent, 7)])), {
    action: 'accept',
    content: { from: 'agent' },
  });
  assert.deepEqual((a.asked[0] as { options: unknown }).options, { relatedRequestId: 7 });
  // Two requests of the same agent: still that agent's (the newer request carries it).
  await bridge.elicit('s', form, undefined, related([bridge.origin(a.agent, 7), bridge.origin(a.agent, 9)]));
  assert.deepEqual((a.asked[1] as { options: unknown }).options, { relatedRequestId: 9 });
  // Nothing in flight (a late question), or no context at all: the editor.
  await bridge.elicit('s', form, undefined, related([]));
  await bridge.elicit('s', form);
  assert.equal(a.asked.length, 2);
  assert.deepEqual(ui.asked, ['s', 's']);
});

test('two agents, or an agent and the editor, with requests on the same server: the question may be either’s, so it goes to the editor', async () => {
  const ui = fallback();
  const bridge = new GatewayBridge(ui);
  const a = fakeAgent({ elicitation: {} });
  const b = fakeAgent({ elicitation: {} });
  await bridge.elicit('s', form, undefined, related([bridge.origin(a.agent, 1), bridge.origin(b.agent, 1)]));
  await bridge.elicit('s', form, undefined, related([undefined, bridge.origin(b.agent, 2)]));
  assert.equal(a.asked.length + b.asked.length, 0);
  assert.deepEqual(ui.asked, ['s', 's']);
  // Unless the server named the task of one of them: then it is exactly that one's.
  const aTask = bridge.origin(a.agent, 3);
  await bridge.elicit('s', form, undefined, related([aTask, bridge.origin(b.agent, 4)], aTask));
  assert.deepEqual((a.asked[0] as { options: unknown }).options, { relatedRequestId: 3 });
  assert.equal(b.asked.length, 0);
  // A task of the editor's own call stays with the editor.
  await bridge.elicit('s', form, undefined, {
    callers: [undefined, bridge.origin(b.agent, 5)],
    owner: { origin: undefined, via: 'task' },
  });
  assert.deepEqual(ui.asked, ['s', 's', 's']);
});

test('URL mode needs the agent to declare url; an empty elicitation capability means form only', async () => {
  const ui = fallback();
  const bridge = new GatewayBridge(ui);
  const formOnly = fakeAgent({ elicitation: {} });
  const mine = related([bridge.origin(formOnly.agent, 1)]);
  await bridge.elicit('s', url, undefined, mine);
  assert.deepEqual(ui.asked, ['s']);
  await bridge.elicit('s', form, undefined, mine);
  assert.equal(formOnly.asked.length, 1);
});

test('without a fallback a question nobody can answer is declined; sampling without a capable agent is refused', async () => {
  const bridge = new GatewayBridge();
  const none = fakeAgent({});
  const mine = related([bridge.origin(none.agent, 1)]);
  assert.deepEqual(await bridge.elicit('s', form, undefined, mine), { action: 'decline' });
  await assert.rejects(
    bridge.createMessage('s', { messages: [], maxTokens: 1 }, undefined, mine),
    /no model is available to s/,
  );
});

test('sampling: an agent call in flight that declared sampling gets it; otherwise the editor’s port (the fallback) does', async () => {
  const editorAsked: string[] = [];
  const editor = {
    createMessage: (server: string) => {
      editorAsked.push(server);
      return Promise.resolve({
        role: 'assistant' as const,
        model: 'editor',
        content: { type: 'text' as const, text: 'from the editor' },
      });
    },
  };
  const bridge = new GatewayBridge(undefined, editor);
  const agentAsked: unknown[] = [];
  const capable = {
    getClientCapabilities: () => ({ sampling: {} }),
    createMessage: (_p: unknown, options: unknown) => (
      agentAsked.push(options),
      Promise.resolve({ role: 'assistant', model: 'agent', content: { type: 'text', text: 'from the agent' } })
    ),
  } as unknown as Server;
  const params = {
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }],
    maxTokens: 5,
  };
  assert.equal(
    (await bridge.createMessage('s', params, undefined, related([bridge.origin(capable, 3)]))).model,
    'agent',
  );
  assert.deepEqual(agentAsked, [{ relatedRequestId: 3 }]);
  // No agent call on this server: the editor's consent and model path.
  assert.equal((await bridge.createMessage('t', params, undefined, related([]))).model, 'editor');
  // An agent call in flight whose agent did not declare sampling: the editor too.
  assert.equal(
    (await bridge.createMessage('s', params, undefined, related([bridge.origin(fakeAgent({}).agent, 4)]))).model,
    'editor',
  );
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
