/**
 * The forwarding path of `tools/call` (core/gateway/forward.ts) through real agents of both eras:
 * what the server sent reaches the agent as sent (no host-shape round trip that dropped annotations
 * and `_meta`), a legacy agent's call is answered by the fallback handler with its params checked,
 * and cancelling such a call still reaches the server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, ProtocolError, ProtocolErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { def } from '../connection/helpers.js';
import { withDeadline } from '../../support/wait.js';
import { agent, startRig, type Rig } from './helpers.js';

const ANNOTATED = { type: 'text', text: 'hi', annotations: { audience: ['user'], priority: 0.5 }, _meta: { k: 'v' } };
const EMBEDDED = { type: 'resource', resource: { uri: 'mem://b', mimeType: 'application/octet-stream', blob: 'QkJC' } };

let rig: Rig;
/** Resolved when the server's `wait` tool starts, and when its signal aborts. */
let started: () => void = () => undefined;
let aborted: () => void = () => undefined;

before(async () => {
  rig = await startRig([
    def('rich', {
      type: 'inprocess',
      id: 'rich',
      start: async (transport: Transport) => {
        const server = new McpServer({ name: 'rich', version: '1.0.0' });
        server.registerTool('annotated', { description: 'Annotated content' }, () => ({
          content: [ANNOTATED as never, EMBEDDED as never],
        }));
        server.registerTool('wait', { description: 'Waits until cancelled' }, (ctx) => {
          started();
          return new Promise((_, reject) => {
            ctx.mcpReq.signal.addEventListener('abort', () => {
              aborted();
              reject(new Error('cancelled'));
            });
          });
        });
        await server.connect(transport);
      },
    }),
  ]);
});

after(async () => {
  await rig?.dispose();
});

async function modernAgent(): Promise<Client> {
  const client = new Client(
    { name: 'modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(rig.http.url), {
      requestInit: { headers: { Authorization: `Bearer ${rig.http.token}` } },
    }),
  );
  return client;
}

describe('gateway: tools/call forwarded', { timeout: 120_000 }, () => {
  for (const era of ['legacy', 'modern'] as const) {
    test(`a ${era} agent gets the server's content as sent: annotations, _meta, the blob inline`, async () => {
      const client = era === 'legacy' ? await agent(rig) : await modernAgent();
      try {
        const r = await client.callTool({ name: 'rich__annotated', arguments: {} });
        assert.deepEqual(r.content, [ANNOTATED, EMBEDDED]);
      } finally {
        await client.close();
      }
    });
  }

  test('a legacy agent: bad tools/call params are refused as invalid params, and the session goes on', async () => {
    const client = await agent(rig);
    try {
      const passThrough = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
      await assert.rejects(
        client.request(
          { method: 'tools/call', params: { name: 'rich__annotated', arguments: [1] } } as never,
          passThrough as never,
        ),
        (e: unknown) =>
          e instanceof ProtocolError && e.code === ProtocolErrorCode.InvalidParams && /arguments/.test(e.message),
      );
      const r = await client.callTool({ name: 'rich__annotated', arguments: {} });
      assert.equal(r.content.length, 2);
    } finally {
      await client.close();
    }
  });

  test('a legacy agent that cancels its call: the server hears it', async () => {
    const client = await agent(rig);
    try {
      const running = new Promise<void>((r) => (started = r));
      const stopped = new Promise<void>((r) => (aborted = r));
      const ac = new AbortController();
      const call = client.callTool({ name: 'rich__wait', arguments: {} }, { signal: ac.signal });
      await withDeadline(running, 'the wait tool to start', 30_000);
      ac.abort();
      await assert.rejects(call);
      await withDeadline(stopped, 'the server to hear notifications/cancelled', 30_000);
    } finally {
      await client.close();
    }
  });
});
