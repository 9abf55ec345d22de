// What an agent hears when the set of exposed servers changes: a server stops, a server is
// excluded by the setting, a tool is switched off through the filter hook.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { stdioDef, waitFor } from '../connection/helpers.js';
import { agent, closeAgent, startRig, type Rig } from './helpers.js';
import { withDeadline } from '../../support/wait.js';

const excluded = new Set<string>();
const disabledTools = new Set<string>();
let rig: Rig;
let client: Client;
let changed: () => void = () => {};

before(async () => {
  rig = await startRig([stdioDef('one'), stdioDef('two')], {
    isServerExposed: (s) => !excluded.has(s),
    isToolEnabled: (s, t) => !disabledTools.has(`${s}/${t}`),
  });
  client = await agent(rig);
  client.setNotificationHandler('notifications/tools/list_changed', () => changed());
});

after(async () => {
  if (client) await closeAgent(client);
  await rig?.dispose();
});

async function toolNames(): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name);
}

function nextChange(): Promise<void> {
  return withDeadline(new Promise((resolve) => (changed = resolve)), 'tools/list_changed');
}

test('a stopped server’s tools go away with list_changed, and come back when it starts', async () => {
  assert.ok((await toolNames()).includes('two__echo'));
  let heard = nextChange();
  await rig.host.stop('two');
  await heard;
  assert.ok(!(await toolNames()).some((n) => n.startsWith('two__')));
  heard = nextChange();
  await rig.host.start('two');
  await waitFor(rig.host, 'two', (s) => s.state.kind === 'connected');
  await heard;
  assert.ok((await toolNames()).includes('two__echo'));
});

test('excluding a server and switching a tool off take effect on refresh, with list_changed', async () => {
  let heard = nextChange();
  excluded.add('one');
  rig.gateway.refresh();
  await heard;
  const names = await toolNames();
  assert.ok(!names.some((n) => n.startsWith('one__')), names.join(', '));
  const r = await client.callTool({ name: 'one__echo', arguments: { text: 'x' } }).catch((e: unknown) => e);
  assert.match(String((r as Error).message ?? r), /unknown tool/);

  heard = nextChange();
  disabledTools.add('two/echo');
  rig.gateway.refresh();
  await heard;
  const after = await toolNames();
  assert.ok(!after.includes('two__echo') && after.includes('two__pid'), after.join(', '));
});
