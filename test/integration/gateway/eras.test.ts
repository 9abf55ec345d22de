// Agents of both protocol eras on the one HTTP gateway: a 2026-07-28 agent (SDK v2 client pinned
// to the modern revision, stateless) beside a 2025-11-25 agent (sessions). Questions a legacy
// upstream server asks mid-call reach the modern agent as `input_required` and its answer goes back
// to the upstream request; each question reaches only the agent whose call it belongs to.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { acceptedContent, inputRequired, McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { def, EVERYTHING, stdioDef, tempDir, waitFor } from '../connection/helpers.js';
import { agent, askerDef, closeAgent, startRig, text, untilAgents, type Rig } from './helpers.js';
import {
  cancelReaches,
  eraClient,
  progressReaches,
  resourceUpdatesHeard,
  toolsChangeHeard,
} from '../../support/era-matrix.js';

/** An in-process (legacy-wire) server whose `sample` tool asks its client's model mid-call. */
function samplerDef(name: string): ServerDefinition {
  return def(name, {
    type: 'inprocess',
    id: name,
    start: async (transport: Transport) => {
      const server = new McpServer({ name, version: '1.0.0' });
      server.registerTool('sample', { description: 'Asks the model' }, async () => {
        const r = await server.server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'say hi' } }],
          maxTokens: 10,
        });
        return { content: [{ type: 'text', text: `model ${r.model}: ${(r.content as { text: string }).text}` }] };
      });
      await server.connect(transport);
    },
  });
}

/**
 * A server written for 2026-07-28: its tools answer `input_required` (elicitation, sampling) and
 * read the answers from the retry. The host talks to it on the 2025 wire, where the SDK's own
 * legacy shim turns those into real requests, so they reach the gateway's bridge like any question.
 */
function modernUpstreamDef(name: string): ServerDefinition {
  return def(name, {
    type: 'inprocess',
    id: name,
    start: async (transport: Transport) => {
      const server = new McpServer({ name, version: '1.0.0' });
      server.registerTool('ask', { description: 'Asks for a name (input_required)' }, (ctx) => {
        const got = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'name');
        if (!got)
          return inputRequired({
            inputRequests: {
              name: inputRequired.elicit({
                mode: 'form',
                message: 'Your name?',
                requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
              }),
            },
          });
        return { content: [{ type: 'text', text: `accept: ${got.name}` }] };
      });
      server.registerTool('sample', { description: 'Asks the model (input_required)' }, (ctx) => {
        const r = ctx.mcpReq.inputResponses?.model as { model: string; content: { text: string } } | undefined;
        if (!r)
          return inputRequired({
            inputRequests: {
              model: inputRequired.createMessage({
                messages: [{ role: 'user', content: { type: 'text', text: 'say hi' } }],
                maxTokens: 10,
              }),
            },
          });
        return { content: [{ type: 'text', text: `model ${r.model}: ${r.content.text}` }] };
      });
      await server.connect(transport);
    },
  });
}

/** An agent on the 2026-07-28 revision only, that answers questions as `who`. */
async function modernAgent(rig: Rig, who: string, caps: ClientCapabilities, asked: string[]): Promise<Client> {
  const client = eraClient('2026-07-28', `modern-${who}`, caps);
  if (caps.elicitation) answerAs(client, who, asked);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(rig.http.url), {
      requestInit: { headers: { Authorization: `Bearer ${rig.http.token}` } },
    }),
  );
  return client;
}

function answerAs(client: Client, who: string, asked: string[]): void {
  client.setRequestHandler('elicitation/create', (req) => {
    asked.push(req.params.message);
    return { action: 'accept', content: { name: who } };
  });
  client.setRequestHandler('sampling/createMessage', () => {
    asked.push('sampling');
    return { model: `${who}-model`, role: 'assistant', content: { type: 'text', text: `hi from ${who}` } };
  });
}

let rig: Rig;
let modern: Client;
let legacy: Client;
const modernAsked: string[] = [];
const legacyAsked: string[] = [];
const record = join(tempDir('gw-eras'), 'alpha.log');

before(async () => {
  rig = await startRig([
    stdioDef('alpha', ['--record', record]),
    stdioDef('beta'),
    askerDef('ask1'),
    askerDef('ask2'),
    samplerDef('samp1'),
    samplerDef('samp2'),
    modernUpstreamDef('new1'),
    modernUpstreamDef('new2'),
    def('everything', { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }),
  ]);
  modern = await modernAgent(rig, 'Ada', { elicitation: { form: {} }, sampling: {} }, modernAsked);
  legacy = await agent(rig, { elicitation: { form: {} }, sampling: {} });
  answerAs(legacy, 'Bob', legacyAsked);
});

after(async () => {
  await modern?.close();
  if (legacy) await closeAgent(legacy);
  await rig?.dispose();
});

describe('gateway over HTTP, both eras', { timeout: 120_000 }, () => {
  test('the modern agent is served statelessly: no session, same tools, prompts and resources', async () => {
    assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
    const sessions = rig.http.sessionCount();
    const names = (await modern.listTools()).tools.map((t) => t.name);
    for (const n of ['alpha__echo', 'beta__echo', 'ask1__ask', 'samp1__sample']) assert.ok(names.includes(n), n);
    assert.deepEqual(
      names,
      (await legacy.listTools()).tools.map((t) => t.name),
    );
    assert.equal(text(await modern.callTool({ name: 'beta__echo', arguments: { text: 'hi' } })), 'echo: hi');
    const { prompts } = await modern.listPrompts();
    assert.ok(prompts.some((p) => p.name === 'beta__greet'));
    const read = await modern.readResource({ uri: 'mcp-host://beta/fixture://hello' });
    assert.equal((read.contents[0] as { text: string }).text, 'hello resource');
    assert.equal(rig.http.sessionCount(), sessions, 'a modern agent opens no session');
  });

  test('progress reaches the modern agent', async () => {
    assert.equal(await progressReaches(modern, 'alpha__slow', { ms: 600, steps: 3 }), 'slept 600');
  });

  test('the modern agent’s cancellation reaches the server', async () => {
    await cancelReaches(modern, 'alpha__hang', () =>
      readFileSync(record, 'utf8')
        .split('\n')
        .some((l) => l.startsWith('cancelled')),
    );
  });

  test('list_changed reaches the modern agent on subscriptions/listen', async () => {
    try {
      const names = await toolsChangeHeard(
        modern,
        async () => {
          // The legacy agent (its event stream) and the modern one (its listen stream, and its calls before).
          await untilAgents(rig.gateway, 2);
          await rig.host.stop('beta');
        },
        // The first list after the notification already lacks them.
        () => true,
      );
      assert.ok(!names.some((t) => t.startsWith('beta__')));
    } finally {
      await rig.host.start('beta');
      await waitFor(rig.host, 'beta', (s) => s.state.kind === 'connected');
    }
  });

  test('resource updates reach the modern agent on subscriptions/listen, under its URI', async () => {
    const uri = rig.gateway.current().resources.find((r) => r.resource.server === 'everything')?.uri;
    assert.ok(uri);
    // server-everything sends updates for subscribed URIs once this tool turns them on.
    await resourceUpdatesHeard(modern, uri, () =>
      modern.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} }),
    );
  });

  test('a legacy server’s elicitation reaches the modern agent as input_required, and its answer goes back', async () => {
    modernAsked.length = 0;
    legacyAsked.length = 0;
    const r = await modern.callTool({ name: 'ask1__ask', arguments: {} });
    assert.equal(text(r), 'accept: Ada');
    assert.deepEqual(modernAsked, ['[ask1] Your name?']);
    assert.deepEqual(legacyAsked, []);
    assert.deepEqual(rig.fallback.asked, []);
  });

  test('a legacy server’s sampling reaches the modern agent’s model', async () => {
    modernAsked.length = 0;
    const r = await modern.callTool({ name: 'samp1__sample', arguments: {} });
    assert.equal(text(r), 'model Ada-model: hi from Ada');
    assert.deepEqual(modernAsked, ['sampling']);
  });

  test('two agents of different eras at once: each question reaches only its own agent', async () => {
    modernAsked.length = 0;
    legacyAsked.length = 0;
    const [m, l, ms, ls] = await Promise.all([
      modern.callTool({ name: 'ask1__ask', arguments: {} }),
      legacy.callTool({ name: 'ask2__ask', arguments: {} }),
      modern.callTool({ name: 'samp1__sample', arguments: {} }),
      legacy.callTool({ name: 'samp2__sample', arguments: {} }),
    ]);
    assert.equal(text(m), 'accept: Ada');
    assert.equal(text(l), 'accept: Bob');
    assert.equal(text(ms), 'model Ada-model: hi from Ada');
    assert.equal(text(ls), 'model Bob-model: hi from Bob');
    assert.deepEqual(modernAsked.sort(), ['[ask1] Your name?', 'sampling']);
    assert.deepEqual(legacyAsked.sort(), ['[ask2] Your name?', 'sampling']);
    assert.deepEqual(rig.fallback.asked, []);
  });

  test('a modern server’s input_required reaches both eras’ agents, each only its own', async () => {
    modernAsked.length = 0;
    legacyAsked.length = 0;
    const [m, l, ms, ls] = await Promise.all([
      modern.callTool({ name: 'new1__ask', arguments: {} }),
      legacy.callTool({ name: 'new2__ask', arguments: {} }),
      modern.callTool({ name: 'new1__sample', arguments: {} }),
      legacy.callTool({ name: 'new2__sample', arguments: {} }),
    ]);
    assert.equal(text(m), 'accept: Ada');
    assert.equal(text(l), 'accept: Bob');
    assert.equal(text(ms), 'model Ada-model: hi from Ada');
    assert.equal(text(ls), 'model Bob-model: hi from Bob');
    assert.deepEqual(modernAsked.sort(), ['[new1] Your name?', 'sampling']);
    assert.deepEqual(legacyAsked.sort(), ['[new2] Your name?', 'sampling']);
    assert.deepEqual(rig.fallback.asked, []);
  });

  test('a modern agent without the capability: the editor is asked, never another agent', async () => {
    const asked: string[] = [];
    legacyAsked.length = 0;
    const bare = await modernAgent(rig, 'Cy', {}, asked);
    try {
      const r = await bare.callTool({ name: 'ask1__ask', arguments: {} });
      assert.equal(text(r), 'accept: from the editor');
      assert.deepEqual(asked, []);
      assert.deepEqual(legacyAsked, []);
      assert.deepEqual(rig.fallback.asked, ['Your name?']);
    } finally {
      rig.fallback.asked.length = 0;
      await bare.close();
    }
  });

  test('a requestState nobody issued is refused', async () => {
    const res = await fetch(rig.http.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${rig.http.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'ask1__ask',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'ask1__ask',
          arguments: {},
          requestState: 'forged',
          inputResponses: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
          },
        },
      }),
    });
    const body = await res.text();
    assert.match(body, /unknown or expired requestState/);
  });
});
