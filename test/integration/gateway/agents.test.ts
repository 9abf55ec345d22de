// Counting agents of the stateless era: 2026-07-28 SDK clients over HTTP have no session, so an
// agent is a client identity (clientInfo + endpoint) with a request open or made recently
// (presence.ts); the status bar's count and `agentCount()` are the same number.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { stdioDef } from '../connection/helpers.js';
import { agent, closeAgent, startRig, untilAgents, type Rig } from './helpers.js';

// Long enough for three agents to connect and list on a loaded machine before the assert below.
const IDLE_MS = 4_000;
let rig: Rig;
const open: Client[] = [];

async function modernAgent(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(rig.http.url), {
      requestInit: { headers: { Authorization: `Bearer ${rig.http.token}` } },
    }),
  );
  open.push(client);
  return client;
}

before(async () => {
  rig = await startRig([stdioDef('alpha')], { agentIdleMs: IDLE_MS });
});

after(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await rig.dispose();
});

describe('agents that are there, both eras', { timeout: 180_000 }, () => {
  test('modern agents count by client while active, beside a session agent, and go after the idle window', async () => {
    await untilAgents(rig.gateway, 0);
    const a = await modernAgent('agent-a');
    const b = await modernAgent('agent-b');
    const a2 = await modernAgent('agent-a');
    await Promise.all([a.listTools(), b.listTools(), a2.listTools()]);
    // Two copies of one client at one endpoint cannot be told apart: one agent.
    assert.equal(rig.gateway.agentCount(), 2);
    assert.equal(rig.http.liveSessionCount(), 2);
    // An open listen stream keeps each counted however long the session agent takes to connect
    // (on a loaded machine that outlasted the idle window, and the modern agents left too early).
    const streams = await Promise.all([a.listen({ toolsListChanged: true }), b.listen({ toolsListChanged: true })]);
    const legacy = await agent(rig);
    await untilAgents(rig.gateway, 3);
    await closeAgent(legacy);
    await untilAgents(rig.gateway, 2);
    await Promise.all(streams.map((st) => st.close()));
    // Nothing more from them: gone once the window has passed, and the count says so by itself.
    await untilAgents(rig.gateway, 0, IDLE_MS * 10);
  });

  test('a modern agent that only listens is counted, and goes after its stream closes', async () => {
    await untilAgents(rig.gateway, 0, IDLE_MS * 10);
    const c = await modernAgent('listener');
    const sub = await c.listen({ toolsListChanged: true });
    await untilAgents(rig.gateway, 1);
    await sub.close();
    await untilAgents(rig.gateway, 0, IDLE_MS * 10);
  });
});
