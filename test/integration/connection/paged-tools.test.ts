/**
 * A server that pages its tool list: every tool, on every page, is wrapped, and the
 * structuredContent of a tool from the first page is still checked against its outputSchema.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/server';
import type { Transport, Tool } from '@modelcontextprotocol/server';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { MemoryLogger, def, tempDir, textOf } from './helpers.js';

const hosts: McpHost[] = [];
after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
});

const outputSchema: Tool['outputSchema'] = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
const pages: Tool[][] = [
  [{ name: 'first_page_tool', inputSchema: { type: 'object' }, outputSchema }],
  [{ name: 'second_page_tool', inputSchema: { type: 'object' }, outputSchema }],
];

async function startPagedServer(transport: Transport): Promise<void> {
  const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async (req) => {
    const page = Number(req.params?.cursor ?? '0');
    return { tools: pages[page]!, nextCursor: page + 1 < pages.length ? String(page + 1) : undefined };
  });
  server.setRequestHandler('tools/call', async (req) => {
    // Both tools break their own output schema: `n` must be a number.
    if (req.params.arguments?.['valid'])
      return { content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } };
    return { content: [{ type: 'text', text: 'bad' }], structuredContent: { n: 'not a number' } };
  });
  await server.connect(transport);
}

test('tools of every page are listed and their structured output is validated', async () => {
  const host = createHost({ logger: new MemoryLogger(), blobDir: tempDir('paged'), env: {} });
  hosts.push(host);
  host.setDefinitions([def('paged', { type: 'inprocess', id: 'paged', start: startPagedServer })]);
  await host.whenSettled();
  const snap = host.server('paged')!;
  assert.equal(snap.state.kind, 'connected');
  assert.deepEqual(
    snap.tools.map((t) => t.name),
    ['first_page_tool', 'second_page_tool'],
  );

  assert.equal(textOf(await host.callTool('paged', 'first_page_tool', { valid: true })), 'ok');
  for (const tool of ['first_page_tool', 'second_page_tool']) {
    await assert.rejects(
      host.callTool('paged', tool, {}),
      /structured content|output schema|does not match/i,
      `${tool} output must be checked`,
    );
  }
});
