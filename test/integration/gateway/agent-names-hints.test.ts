/**
 * What agents that rewrite tool names (Codex: `[A-Za-z0-9_]` only; Copilot CLI: `<key>-` in front)
 * and agents that decide approvals by hints are listed through the gateway: names that stay apart
 * once rewritten, each calling its own tool; the servers' own hints forwarded; the gateway's own
 * search tools marked read-only and closed-world.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { agentFold } from '../../../src/core/gateway/agent-names.js';
import { def } from '../connection/helpers.js';
import { agent, closeAgent, startRig, text, type Rig } from './helpers.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** An in-process server whose tools answer with their own name, so a call shows which tool it reached. */
function namesServer(name: string, tools: { name: string; annotations?: Record<string, boolean> }[]): ServerDefinition {
  return def(name, {
    type: 'inprocess',
    id: name,
    start: async (transport: Transport) => {
      const server = new McpServer({ name, version: '1.0.0' });
      for (const t of tools)
        server.registerTool(
          t.name,
          {
            description: `The ${t.name} tool of ${name}`,
            inputSchema: z.object({}),
            ...(t.annotations ? { annotations: t.annotations } : {}),
          },
          async () => ({ content: [{ type: 'text', text: `${name}/${t.name}` }] }),
        );
      await server.connect(transport);
    },
  });
}

let rig: Rig;
const agents: Client[] = [];

before(async () => {
  rig = await startRig([
    namesServer('calc', [
      { name: 'get-sum', annotations: READ },
      { name: 'get_sum', annotations: READ },
      { name: 'wipe', annotations: { destructiveHint: true } },
    ]),
    namesServer('a-b', [{ name: 'x' }]),
    namesServer('a_b', [{ name: 'x' }]),
  ]);
});

after(async () => {
  for (const a of agents) await closeAgent(a);
  await rig?.dispose();
});

describe('tool names and hints through the gateway', { timeout: 60_000 }, () => {
  test('names survive Codex’s and Copilot’s rewriting, and each still calls its own tool', async () => {
    const client = await agent(rig);
    agents.push(client);
    const tools = (await client.listTools()).tools;
    const names = tools.map((t) => t.name);
    assert.equal(names.length, 5, names.join(', '));
    assert.equal(new Set(names.map(agentFold)).size, 5, `Codex would merge some of: ${names.join(', ')}`);
    assert.equal(new Set(names.map((n) => `host-${n}`)).size, 5);
    const reached = new Set<string>();
    for (const n of names) reached.add(text(await client.callTool({ name: n, arguments: {} })));
    assert.deepEqual([...reached].sort(), ['a-b/x', 'a_b/x', 'calc/get-sum', 'calc/get_sum', 'calc/wipe']);
    // The servers' own hints reach the agent as they were sent.
    assert.deepEqual(tools.find((t) => t.name === 'calc__get-sum')?.annotations, READ);
    assert.deepEqual(tools.find((t) => t.name === 'calc__wipe')?.annotations, { destructiveHint: true });
  });

  test('search mode: search and schema are read-only and closed-world, call_tool as strong as its tools, results carry each tool’s hints', async () => {
    const client = await agent(rig, {}, '?tools=search');
    agents.push(client);
    const tools = (await client.listTools()).tools;
    const hints = (n: string): unknown => {
      const { title: _title, ...rest } = (tools.find((t) => t.name === n)?.annotations ?? {}) as Record<
        string,
        unknown
      >;
      return rest;
    };
    assert.deepEqual(hints('search_tools'), READ);
    assert.deepEqual(hints('get_tool_schema'), READ);
    // One tool it can reach may destroy (calc/wipe), the a-b tools say nothing: the defaults hold.
    assert.deepEqual(hints('call_tool'), {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    const found = JSON.parse(text(await client.callTool({ name: 'search_tools', arguments: { query: 'wipe' } }))) as {
      tools: { name: string; annotations?: unknown }[];
    };
    assert.deepEqual(found.tools.find((t) => t.name === 'calc__wipe')?.annotations, { destructiveHint: true });
    const schema = JSON.parse(
      text(await client.callTool({ name: 'get_tool_schema', arguments: { name: 'calc__get-sum' } })),
    ) as { annotations?: unknown };
    assert.deepEqual(schema.annotations, READ);
  });
});
