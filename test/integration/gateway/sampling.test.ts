// One sampling entry point (issue 13): in the editor's shape of the host (the bridge in front of the
// editor's own sampling port), server-everything's sampling tool called through the gateway by an
// agent that declared sampling is answered by that agent; by an agent without it, by the editor.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client, CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import type { SamplingPort } from '../../../src/core/host-api.js';
import { def, EVERYTHING } from '../connection/helpers.js';
import { agent, closeAgent, startRig, text, type Rig } from './helpers.js';

/** Stands in for the editor's consent prompt and language model: records the prompts it served. */
class EditorModel implements SamplingPort {
  asked: string[] = [];
  createMessage(_server: string, p: CreateMessageRequestParams): Promise<CreateMessageResult> {
    this.asked.push(promptOf(p));
    return Promise.resolve({
      role: 'assistant',
      model: 'editor-model',
      content: { type: 'text', text: 'from the editor' },
    });
  }
}

function promptOf(p: CreateMessageRequestParams): string {
  const c = p.messages[0]?.content as { text?: string } | undefined;
  return c?.text ?? '';
}

let rig: Rig;
const editor = new EditorModel();

before(async () => {
  rig = await startRig(
    [def('everything', { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] })],
    {},
    editor,
  );
});

after(async () => {
  await rig?.dispose();
});

describe('sampling during a gateway call', { timeout: 120_000 }, () => {
  test('the bridge as the features port declares sampling: server-everything offers its sampling tools', () => {
    const tools = rig.host.server('everything')?.tools.map((t) => t.name) ?? [];
    assert.ok(tools.includes('trigger-sampling-request'), tools.join(', '));
  });

  test('an agent that declared sampling answers the server’s request made during its call; the editor is not asked', async () => {
    const client: Client = await agent(rig, { sampling: {} });
    const prompts: string[] = [];
    client.setRequestHandler('sampling/createMessage', (req) => {
      prompts.push(promptOf(req.params));
      return { role: 'assistant', model: 'agent-model', content: { type: 'text', text: 'from the agent' } };
    });
    try {
      const r = await client.callTool({
        name: 'everything__trigger-sampling-request',
        arguments: { prompt: 'a haiku about ports' },
      });
      assert.match(text(r), /from the agent/);
      assert.match(text(r), /agent-model/);
      assert.equal(prompts.length, 1);
      assert.match(prompts[0]!, /a haiku about ports/);
      assert.deepEqual(editor.asked, []);
    } finally {
      await closeAgent(client);
    }
  });

  test('an agent without the capability: the editor’s consent and model path serves it', async () => {
    const client: Client = await agent(rig);
    try {
      const r = await client.callTool({
        name: 'everything__trigger-sampling-request',
        arguments: { prompt: 'a limerick' },
      });
      assert.match(text(r), /from the editor/);
      assert.equal(editor.asked.length, 1);
      assert.match(editor.asked[0]!, /a limerick/);
    } finally {
      await closeAgent(client);
    }
  });
});
