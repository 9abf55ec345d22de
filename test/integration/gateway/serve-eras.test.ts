// `mcp-host serve` for a 2026-07-28 agent: the SDK v2 client pinned to the modern revision over
// stdio, server-everything (a 2025-era server) behind it. Its questions mid-call come back to the
// agent as `input_required`, its list changes on `subscriptions/listen`. The scenarios both eras
// share are the era matrix's (test/support/era-matrix.ts); serve.test.ts runs them for a legacy agent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { EVERYTHING, createHarness, type Harness } from '../cli/harness.js';
import { serveTransport, text } from './helpers.js';
import {
  eraClient,
  everythingAsksTheAgent,
  progressReaches,
  resourceUpdatesHeard,
  toolsChangeHeard,
} from '../../support/era-matrix.js';

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
  client = eraClient('2026-07-28', 'serve-modern-test', { elicitation: { form: {} }, sampling: {} });
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
    await everythingAsksTheAgent(client, 'modern-model');
    assert.equal(asked.length, 1);
    await progressReaches(client, 'everything__trigger-long-running-operation', { duration: 1.5, steps: 3 });
  });

  test('resource updates on subscriptions/listen, under the agent’s URI', async () => {
    const uri = (await client.listResources()).resources[0]!.uri;
    await resourceUpdatesHeard(client, uri, () =>
      client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} }),
    );
  });

  test('list_changed on subscriptions/listen when a server is added to .mcp.json', async () => {
    const names = await toolsChangeHeard(
      client,
      () =>
        writeFile(
          join(ws, '.mcp.json'),
          JSON.stringify(
            { mcpServers: servers({ second: { command: process.execPath, args: [h.fixture('unicode-tools')] } }) },
            null,
            2,
          ),
        ),
      (n) => n.some((x) => x.startsWith('second__')),
    );
    assert.ok(names.includes('everything__echo'));
  });
});
