// The result limit and structuredContent: an agent never gets more than the limit through it, and
// the whole of it reads back from the paged result resource. Real SDK clients (both eras) against
// the HTTP gateway, an in-process SDK server whose tools return structured results.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { def } from '../connection/helpers.js';
import { agent, closeAgent, startRig, text, z, type Rig } from './helpers.js';

const LIMIT = 100; // tokens: 400 characters
const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row number ${i}` }));
const big = { rows };

function structuredDef() {
  return def('data', {
    type: 'inprocess',
    id: 'data',
    start: async (transport: Transport) => {
      const server = new McpServer({ name: 'data', version: '1.0.0' });
      const outputSchema = z.object({ rows: z.array(z.object({ id: z.number(), name: z.string() })) });
      // As the spec asks: the structured result, and its JSON as text for older clients.
      server.registerTool('rows', { description: 'All rows (declares an output schema)', outputSchema }, () => ({
        content: [{ type: 'text', text: JSON.stringify(big) }],
        structuredContent: big,
      }));
      server.registerTool('few', { description: 'Two rows', outputSchema }, () => ({
        content: [{ type: 'text', text: JSON.stringify({ rows: rows.slice(0, 2) }) }],
        structuredContent: { rows: rows.slice(0, 2) },
      }));
      // Small text, large structured result, no schema: the structured part alone is over the limit.
      server.registerTool('summary', { description: 'A summary and the rows' }, () => ({
        content: [{ type: 'text', text: '200 rows' }],
        structuredContent: big,
      }));
      await server.connect(transport);
    },
  });
}

let rig: Rig;
let legacy: Client;
let modern: Client;

before(async () => {
  rig = await startRig([structuredDef()], { resultLimit: () => ({ maxTokens: LIMIT }) });
  legacy = await agent(rig);
  modern = new Client(
    { name: 'modern-agent', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await modern.connect(
    new StreamableHTTPClientTransport(new URL(rig.http.url), {
      requestInit: { headers: { Authorization: `Bearer ${rig.http.token}` } },
    }),
  );
});

after(async () => {
  await closeAgent(legacy);
  await modern.close();
  await rig.dispose();
});

/** Every page of `base?structured`, joined. */
async function readStructured(client: Client, base: string): Promise<string> {
  let whole = '';
  for (let page = 1; ; page++) {
    const r = await client.readResource({ uri: `${base}?structured&page=${page}` }).catch((err: Error) => err);
    if (r instanceof Error) {
      assert.match(r.message, /pages are 1 to/);
      return whole;
    }
    const item = r.contents[0] as { text: string; mimeType?: string };
    assert.equal(item.mimeType, 'application/json');
    whole += item.text;
  }
}

function resultUri(note: string): string {
  const m = /(mcp-host-result:\/\/[0-9a-f-]+)\?structured&page=1/.exec(note);
  assert.ok(m, note);
  return m[1]!;
}

describe('result limit with structuredContent', { timeout: 60_000 }, () => {
  for (const [era, client] of [
    ['2025-11-25', () => legacy],
    ['2026-07-28', () => modern],
  ] as const) {
    test(`${era} agent: past the limit no structuredContent is sent, and it reads back whole`, async () => {
      const r = await client().callTool({ name: 'data__rows', arguments: {} });
      assert.equal(r.structuredContent, undefined);
      // The tool declares an output schema: without the error mark an SDK client refuses the result.
      assert.equal(r.isError, true);
      const sent = JSON.stringify(r.content).length;
      // The cut text, the note: nothing near the 8 KB of rows.
      assert.ok(sent < LIMIT * 4 + 1200, `sent ${sent} characters`);
      const base = resultUri(text(r));
      assert.deepEqual(JSON.parse(await readStructured(client(), base)), big);
    });
  }

  test('the structured part alone over the limit: dropped, kept, and not an error for a tool without a schema', async () => {
    const r = await legacy.callTool({ name: 'data__summary', arguments: {} });
    assert.equal(r.structuredContent, undefined);
    assert.equal(r.isError, undefined);
    assert.match(text(r), /^200 rows/);
    assert.deepEqual(JSON.parse(await readStructured(legacy, resultUri(text(r)))), big);
  });

  test('within the limit the result, structuredContent included, passes whole', async () => {
    const r = await legacy.callTool({ name: 'data__few', arguments: {} });
    assert.deepEqual(r.structuredContent, { rows: rows.slice(0, 2) });
    assert.equal(r.isError, undefined);
    assert.doesNotMatch(text(r), /mcp-host-result/);
  });
});
