// A server that exits comes back on its next use: an agent's call through the gateway is that use,
// even when the agent is the host's only client (`mcp-host serve`). The chaos benchmark found
// agents' calls refused as unknown tools once their server had crashed, for good.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { stdioDef, waitFor } from '../connection/helpers.js';
import { agent, closeAgent, startRig, text, type Rig } from './helpers.js';

let rig: Rig;
let client: Client;

before(async () => {
  rig = await startRig([stdioDef('phoenix'), stdioDef('bystander')]);
  client = await agent(rig);
});

after(async () => {
  if (client) await closeAgent(client);
  await rig?.dispose();
});

describe('gateway: a crashed server', { timeout: 60_000 }, () => {
  test("an agent's next call reconnects it and is answered", async () => {
    const firstPid = rig.host.pid('phoenix');
    const failed = waitFor(rig.host, 'phoenix', (s) => s.state.kind === 'failed');
    const crash = await client.callTool({ name: 'phoenix__crash', arguments: {} });
    assert.equal(crash.isError, true);
    await failed;
    const r = await client.callTool({ name: 'phoenix__echo', arguments: { text: 'again' } });
    assert.equal(r.isError, undefined, text(r));
    assert.equal(text(r), 'echo: again');
    assert.notEqual(rig.host.pid('phoenix'), firstPid);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'phoenix__echo'));
  });

  test('a stopped server stays stopped: its tools are unknown', async () => {
    await rig.host.stop('bystander');
    await assert.rejects(
      client.callTool({ name: 'bystander__echo', arguments: { text: 'x' } }),
      /unknown tool "bystander__echo"/,
    );
  });
});
