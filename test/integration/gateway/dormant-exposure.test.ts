// A crashed server's tools stay callable through the gateway so a call can bring it back
// (revive.test.ts), but only on the terms a live tool is offered: a tool switched off, or a server
// excluded, while the server is down is refused as unknown and does not restart the server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { stdioDef, waitFor } from '../connection/helpers.js';
import { agent, closeAgent, startRig, text, type Rig } from './helpers.js';

let rig: Rig;
let client: Client;
const switchedOff = new Set<string>();
const excluded = new Set<string>();

before(async () => {
  rig = await startRig([stdioDef('phoenix')], {
    isToolEnabled: (server, tool) => !switchedOff.has(`${server}/${tool}`),
    isServerExposed: (server) => !excluded.has(server),
  });
  client = await agent(rig);
});

after(async () => {
  if (client) await closeAgent(client);
  await rig?.dispose();
});

async function crash(): Promise<void> {
  const failed = waitFor(rig.host, 'phoenix', (s) => s.state.kind === 'failed');
  const r = await client.callTool({ name: 'phoenix__crash', arguments: {} });
  assert.equal(r.isError, true);
  await failed;
}

describe('gateway: the tools of a server that is down', { timeout: 60_000 }, () => {
  test('a tool switched off while its server is down is unknown, and the server stays down', async () => {
    await crash();
    switchedOff.add('phoenix/pid');
    await assert.rejects(client.callTool({ name: 'phoenix__pid', arguments: {} }), /unknown tool "phoenix__pid"/);
    assert.equal(rig.host.server('phoenix')?.state.kind, 'failed');
    assert.equal(rig.host.pid('phoenix'), undefined, 'no process was started for the refused call');
    // Another tool of the same server still brings it back.
    const r = await client.callTool({ name: 'phoenix__echo', arguments: { text: 'back' } });
    assert.equal(text(r), 'echo: back');
  });

  test('a server excluded while it is down is not revived by a call; allowed again, it is', async () => {
    await crash();
    excluded.add('phoenix');
    await assert.rejects(
      client.callTool({ name: 'phoenix__echo', arguments: { text: 'x' } }),
      /unknown tool "phoenix__echo"/,
    );
    assert.equal(rig.host.pid('phoenix'), undefined);
    excluded.delete('phoenix');
    const r = await client.callTool({ name: 'phoenix__echo', arguments: { text: 'again' } });
    assert.equal(text(r), 'echo: again');
  });
});
