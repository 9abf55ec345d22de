// Two agents at once: a server's question during an agent's call goes to the agent whose request
// it belongs to, never to the other one. Real servers behind the gateway: server-everything over
// Streamable HTTP (the question comes on the call's own response stream) and over stdio (no link
// on the wire), and an in-process server whose question comes late, while another agent's request
// on it is newer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/client';
import { EVERYTHING, def, startEverything, type RunningServer } from '../connection/helpers.js';
import { agent, closeAgent, startRig, text, type Rig } from './helpers.js';

/** A gate a test opens by hand. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** `gate` is opened by the test; `entered` opens when the tool's handler starts on the server. */
const late = { gate: gate(), entered: gate() };
const hold = { gate: gate(), entered: gate() };

/** In process: `ask-later` asks only once the test opens its gate; `hold` just waits for its own. */
const lateAsker = def('late', {
  type: 'inprocess',
  id: 'late',
  start: async (transport: Transport) => {
    const server = new McpServer({ name: 'late', version: '1.0.0' });
    server.registerTool('ask-later', { description: 'Asks for a name when the test says so' }, async () => {
      late.entered.open();
      await late.gate.wait;
      const answer = await server.server.elicitInput({
        mode: 'form',
        message: 'Your name, later?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return { content: [{ type: 'text', text: `${answer.action}: ${String(answer.content?.name ?? '')}` }] };
    });
    server.registerTool('hold', { description: 'Returns when the test says so' }, async () => {
      hold.entered.open();
      await hold.gate.wait;
      return { content: [{ type: 'text', text: 'held' }] };
    });
    await server.connect(transport);
  },
});

/** An agent that answers every question with its own name, once the promise given to `answerWhen` settles. */
async function namedAgent(
  rig: Rig,
  name: string,
): Promise<{ client: Client; asked: string[]; answerWhen: (p: Promise<void>) => void; questionSeen: Promise<void> }> {
  const client = await agent(rig, { elicitation: { form: {} } });
  const asked: string[] = [];
  let holdAnswer: Promise<void> = Promise.resolve();
  let seen!: () => void;
  const questionSeen = new Promise<void>((resolve) => (seen = resolve));
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(req.params.message);
    seen();
    await holdAnswer;
    return { action: 'accept', content: { name } };
  });
  const answerWhen = (p: Promise<void>): void => {
    holdAnswer = p;
  };
  return { client, asked, answerWhen, questionSeen };
}

let web: RunningServer;
let rig: Rig;

before(async () => {
  web = await startEverything('streamableHttp');
  rig = await startRig([
    def('web', { type: 'http', url: web.url }),
    def('local', { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }),
    lateAsker,
  ]);
});

after(async () => {
  late.gate.open();
  hold.gate.open();
  await rig?.dispose();
  await web?.stop();
});

describe('elicitation routing with two agents at once', { timeout: 120_000 }, () => {
  test('a question that comes late, while another agent’s request on that server is newer, still goes to the agent that asked', async () => {
    const ada = await namedAgent(rig, 'Ada');
    const bob = await namedAgent(rig, 'Bob');
    try {
      const adaCall = ada.client.callTool({ name: 'late__ask-later', arguments: {} });
      await late.entered.wait;
      // Bob's request starts after Ada's and is still running when the question comes.
      const bobCall = bob.client.callTool({ name: 'late__hold', arguments: {} });
      await hold.entered.wait;
      late.gate.open();
      assert.equal(text(await adaCall), 'accept: Ada');
      hold.gate.open();
      assert.equal(text(await bobCall), 'held');
      assert.deepEqual(ada.asked, ['[late] Your name, later?']);
      assert.deepEqual(bob.asked, []);
      assert.deepEqual(rig.fallback.asked, []);
    } finally {
      await closeAgent(ada.client);
      await closeAgent(bob.client);
    }
  });

  test('Streamable HTTP server: overlapping questions from the same server each reach their own agent', async () => {
    const ada = await namedAgent(rig, 'Ada');
    const bob = await namedAgent(rig, 'Bob');
    const release = gate();
    ada.answerWhen(release.wait);
    try {
      // Ada's question stays open while Bob's request runs and asks its own.
      const adaCall = ada.client.callTool({ name: 'web__trigger-elicitation-request', arguments: {} });
      await ada.questionSeen;
      const bobResult = await bob.client.callTool({ name: 'web__trigger-elicitation-request', arguments: {} });
      assert.match(text(bobResult), /Bob/);
      assert.doesNotMatch(text(bobResult), /Ada/);
      release.open();
      const adaResult = await adaCall;
      assert.match(text(adaResult), /Ada/);
      assert.equal(ada.asked.length, 1);
      assert.equal(bob.asked.length, 1);
      assert.deepEqual(rig.fallback.asked, []);
    } finally {
      release.open();
      await closeAgent(ada.client);
      await closeAgent(bob.client);
    }
  });

  test('stdio server (no link on the wire): with both agents’ requests in flight the question goes to the editor, never to the other agent', async () => {
    const ada = await namedAgent(rig, 'Ada');
    const bob = await namedAgent(rig, 'Bob');
    const release = gate();
    ada.answerWhen(release.wait);
    const before = rig.fallback.asked.length;
    try {
      const adaCall = ada.client.callTool({ name: 'local__trigger-elicitation-request', arguments: {} });
      // Alone on the server, Ada's request owns its question.
      await ada.questionSeen;
      const bobResult = await bob.client.callTool({ name: 'local__trigger-elicitation-request', arguments: {} });
      // Either agent's request may have asked: the editor answered (the rig's dialog says "from the editor").
      assert.match(text(bobResult), /from the editor/);
      assert.equal(rig.fallback.asked.length, before + 1);
      assert.equal(ada.asked.length, 1);
      assert.deepEqual(bob.asked, []);
      release.open();
      assert.match(text(await adaCall), /Ada/);
      // Alone again, Bob's next request gets its own question.
      assert.match(
        text(await bob.client.callTool({ name: 'local__trigger-elicitation-request', arguments: {} })),
        /Bob/,
      );
    } finally {
      release.open();
      await closeAgent(ada.client);
      await closeAgent(bob.client);
    }
  });
});
