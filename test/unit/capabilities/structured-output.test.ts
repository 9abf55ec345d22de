// The SDK's Client validates structuredContent against a tool's outputSchema (once the tools
// were listed through that client). This pins that behaviour down, against a real SDK server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Server, InMemoryTransport } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { toToolCallResult } from '../../../src/core/capabilities/index.js';

async function connect(): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = new Server({ name: 'structured', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [
      {
        name: 'sum',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
      },
    ],
  }));
  server.setRequestHandler('tools/call', (req) => {
    const mode = (req.params.arguments as { mode?: string } | undefined)?.mode;
    if (mode === 'bad') return { content: [{ type: 'text', text: 'x' }], structuredContent: { total: 'many' } };
    if (mode === 'missing') return { content: [{ type: 'text', text: 'x' }] };
    return { content: [{ type: 'text', text: '{"total":3}' }], structuredContent: { total: 3 } };
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await Promise.all([server.connect(b), client.connect(a)]);
  await client.listTools();
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

test('valid structuredContent is passed through', async () => {
  const { client, close } = await connect();
  try {
    const raw = await client.callTool({ name: 'sum', arguments: {} });
    const r = await toToolCallResult(raw as never, 1, '/nonexistent-blob-dir');
    assert.deepEqual(r.structuredContent, { total: 3 });
  } finally {
    await close();
  }
});

test('structuredContent that breaks the outputSchema surfaces as an error', async () => {
  const { client, close } = await connect();
  try {
    await assert.rejects(
      client.callTool({ name: 'sum', arguments: { mode: 'bad' } }),
      /does not match the tool's output schema/,
    );
    await assert.rejects(
      client.callTool({ name: 'sum', arguments: { mode: 'missing' } }),
      /did not return structured content/,
    );
  } finally {
    await close();
  }
});
