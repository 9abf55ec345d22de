// Resource subscriptions and completions through the gateway, with two server-everything
// instances behind it: their prompts become <server>__<prompt>, and their resources and templates
// collide, so the agent sees them wrapped as mcp-host://<server>/<uri>. Every name and URI the
// agent uses must be mapped back to the server's own, and updates come back under the agent's URI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { EVERYTHING, def } from '../connection/helpers.js';
import { agent, closeAgent, startRig, type Rig } from './helpers.js';

const everything = (name: string): ReturnType<typeof def> =>
  def(name, { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] });

let rig: Rig;
let client: Client;
const updates: string[] = [];
let onUpdate: () => void = () => {};

before(async () => {
  rig = await startRig([everything('everything'), everything('second')]);
  client = await agent(rig);
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updates.push(n.params.uri);
    onUpdate();
  });
});

after(async () => {
  if (client) await closeAgent(client);
  await rig?.dispose();
});

describe('gateway: completions and resource subscriptions', { timeout: 120_000 }, () => {
  test('the gateway declares both', () => {
    const caps = client.getServerCapabilities();
    assert.equal(caps?.resources?.subscribe, true);
    assert.deepEqual(caps?.completions, {});
  });

  test('completion/complete for a gateway prompt reaches its server under the prompt’s own name, with context', async () => {
    const dept = await client.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    assert.deepEqual(dept.completion.values, ['Sales', 'Support']);
    const people = await client.complete({
      ref: { type: 'ref/prompt', name: 'second__completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    assert.deepEqual(people.completion.values, ['David', 'Eve', 'Frank']);
    await assert.rejects(
      client.complete({
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: '' },
      }),
      /unknown prompt "completable-prompt"/,
    );
  });

  test('completion/complete for a (wrapped) resource template reaches the server that offers it', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    const wrapped = resourceTemplates
      .map((t) => t.uriTemplate)
      .find((u) => u === 'mcp-host://everything/demo://resource/dynamic/text/{resourceId}');
    assert.ok(wrapped, resourceTemplates.map((t) => t.uriTemplate).join(', '));
    const ids = await client.complete({
      ref: { type: 'ref/resource', uri: wrapped },
      argument: { name: 'resourceId', value: '3' },
    });
    assert.deepEqual(ids.completion.values, ['3']);
    await assert.rejects(
      client.complete({
        ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
        argument: { name: 'resourceId', value: '' },
      }),
      /no exposed resource template/,
    );
  });

  test('an agent subscribed to a resource hears notifications/resources/updated under its own URI; a URI no server offers is refused', async () => {
    const { resources } = await client.listResources();
    const uri = resources.map((r) => r.uri).find((u) => u.startsWith('mcp-host://everything/'));
    assert.ok(uri, resources.map((r) => r.uri).join(', '));
    await client.subscribeResource({ uri });
    const heard = new Promise<void>((resolve) => (onUpdate = resolve));
    // server-everything sends updates for subscribed URIs once this tool turns them on.
    await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    await heard;
    assert.ok(updates.length > 0);
    assert.ok(
      updates.every((u) => u === uri),
      updates.join(', '),
    );
    // The other server's copy of that resource was not subscribed: nothing under its URI.
    assert.ok(!updates.some((u) => u.startsWith('mcp-host://second/')));
    await client.unsubscribeResource({ uri });
    await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    await assert.rejects(
      client.subscribeResource({ uri: 'nowhere://at/all' }),
      /no exposed server offers the resource nowhere:\/\/at\/all/,
    );
  });
});
