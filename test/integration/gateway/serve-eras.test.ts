// `mcp-host serve` for a 2026-07-28 agent: the SDK v2 client pinned to the modern revision over
// stdio, server-everything (a 2025-era server) behind it. Its questions mid-call come back to the
// agent as `input_required`, its list changes on `subscriptions/listen`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { EVERYTHING, createHarness, type Harness } from '../cli/harness.js';
import { serveTransport, text } from './helpers.js';

let h: Harness;
let ws: string;
let client: Client;
const asked: string[] = [];

function servers(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] }, ...extra };
}

before(async () => {
  h = await createHarness();
  ws = await h.workspace('serve-eras', servers());
  client = new Client(
    { name: 'serve-modern-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  client.setRequestHandler('elicitation/create', (req) => {
    asked.push(req.params.message);
    return { action: 'accept', content: { name: 'Ada' } };
  });
  client.setRequestHandler('sampling/createMessage', (req) => ({
    model: 'modern-model',
    role: 'assistant',
    content: { type: 'text', text: `sampled: ${(req.params.messages[0]!.content as { text: string }).text}` },
  }));
  await client.connect(serveTransport(h, ws));
});

after(async () => {
  await client?.close();
  await h?.dispose();
});

describe('mcp-host serve, modern agent', { timeout: 120_000 }, () => {
  test('negotiates 2026-07-28, lists and calls', async () => {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('everything__echo'), names.join(', '));
    const r = await client.callTool({ name: 'everything__echo', arguments: { message: 'via serve' } });
    assert.match(text(r), /via serve/);
  });

  test('elicitation and sampling from a legacy server reach the modern agent; progress too', async () => {
    const r = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
    assert.match(text(r), /Ada/);
    assert.equal(asked.length, 1);
    const s = await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'a haiku' } });
    assert.match(text(s), /sampled: .*a haiku/);
    assert.match(text(s), /modern-model/);
    const seen: number[] = [];
    await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 1.5, steps: 3 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    assert.deepEqual(seen.slice(0, 2), [1, 2]);
  });

  test('resource updates on subscriptions/listen, under the agent’s URI', async () => {
    const uri = (await client.listResources()).resources[0]!.uri;
    const updates: string[] = [];
    const heard = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        updates.push(n.params.uri);
        resolve();
      }),
    );
    const sub = await client.listen({ resourceSubscriptions: [uri] });
    await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    try {
      await heard;
      assert.ok(
        updates.every((u) => u === uri),
        updates.join(', '),
      );
    } finally {
      await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
      await sub.close();
    }
  });

  test('list_changed on subscriptions/listen when a server is added to .mcp.json', async () => {
    let toolsChanged: () => void = () => {};
    client.setNotificationHandler('notifications/tools/list_changed', () => toolsChanged());
    const sub = await client.listen({ toolsListChanged: true });
    try {
      const changed = new Promise<void>((resolve) => (toolsChanged = resolve));
      await writeFile(
        join(ws, '.mcp.json'),
        JSON.stringify(
          { mcpServers: servers({ second: { command: process.execPath, args: [h.fixture('unicode-tools')] } }) },
          null,
          2,
        ),
      );
      await changed;
      let names = (await client.listTools()).tools.map((t) => t.name);
      while (!names.some((n) => n.startsWith('second__'))) {
        await new Promise<void>((resolve) => (toolsChanged = resolve));
        names = (await client.listTools()).tools.map((t) => t.name);
      }
      assert.ok(names.includes('everything__echo'));
    } finally {
      await sub.close();
    }
  });
});
