/**
 * The gateway's forwarding fast path (core/gateway/fast-path.ts, core/connection/frame-channel.ts)
 * keeps what the gateway does: progress, cancellation both ways, a profile's filter, the result
 * limit with its `mcp-host-result://` pages, questions bridged to the asking agent, and a
 * 2026-07-28 agent's `input_required` round (the era bridge, which takes the full path). This file
 * runs on both paths (scripts/test.mjs runs the gateway's files again with
 * MCP_HOST_GATEWAY_FAST_PATH=0), and on the fast path it checks that the calls did take it, in the
 * gateway's count and in the trace, so it cannot pass by never meeting the fast path.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { acceptedContent, inputRequired, McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { Gateway, GatewayBridge, GatewayHttpServer, GatewayViews } from '../../../src/core/gateway/index.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { TraceHub } from '../../../src/core/trace/index.js';
import { def, MemoryLogger, tempDir } from '../connection/helpers.js';
import { withDeadline } from '../../support/wait.js';
import { poll } from '../../support/poll.js';
import { closeAgent, RecordingElicitation, text } from './helpers.js';

const FAST = process.env.MCP_HOST_GATEWAY_FAST_PATH !== '0';
const BIG = 'x'.repeat(40_000);

/** Resolved when the server's `wait` tool starts, and when its signal aborts. */
let started: () => void = () => undefined;
let aborted: () => void = () => undefined;

function upstreamDef(): ServerDefinition {
  return def('up', {
    type: 'inprocess',
    id: 'up',
    start: async (transport: Transport) => {
      const server = new McpServer({ name: 'up', version: '1.0.0' });
      server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text: t }) => ({
        content: [{ type: 'text', text: t }],
      }));
      server.registerTool('progress', {}, async (ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        if (token !== undefined)
          for (const progress of [1, 2])
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress, total: 2 },
            });
        return { content: [{ type: 'text', text: token === undefined ? 'no token' : 'done' }] };
      });
      server.registerTool('wait', {}, (ctx) => {
        started();
        return new Promise((_, reject) =>
          ctx.mcpReq.signal.addEventListener('abort', () => {
            aborted();
            reject(new Error('cancelled'));
          }),
        );
      });
      server.registerTool('big', {}, () => ({ content: [{ type: 'text', text: BIG }] }));
      server.registerResource('note', 'up://note', { mimeType: 'text/plain' }, (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a note' }],
      }));
      server.registerPrompt('greet', { argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }],
      }));
      server.registerTool('ask', {}, async () => {
        const a = await server.server.elicitInput({
          mode: 'form',
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        return { content: [{ type: 'text', text: `${a.action}: ${String(a.content?.name ?? '')}` }] };
      });
      await server.connect(transport);
    },
  });
}

/** A server of the 2026-07-28 kind: its question is an `input_required` answer (the SDK's shim asks it on the 2025 wire). */
function modernDef(): ServerDefinition {
  return def('new', {
    type: 'inprocess',
    id: 'new',
    start: async (transport: Transport) => {
      const server = new McpServer({ name: 'new', version: '1.0.0' });
      server.registerTool('ask', {}, (ctx) => {
        const got = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'name');
        if (got) return { content: [{ type: 'text', text: `accept: ${got.name}` }] };
        return inputRequired({
          inputRequests: {
            name: inputRequired.elicit({
              mode: 'form',
              message: 'Your name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            }),
          },
        });
      });
      await server.connect(transport);
    },
  });
}

let host: McpHost;
let gateway: Gateway;
let http: GatewayHttpServer;
const trace = new TraceHub({ enabled: '*' });

before(async () => {
  const logger = new MemoryLogger();
  const bridge = new GatewayBridge(new RecordingElicitation());
  host = createHost({
    logger,
    blobDir: tempDir('gw-fast-blobs'),
    elicitation: bridge,
    features: bridge.featureOptions(),
    wrapTransport: (d, t) => trace.attach(d, t),
  });
  host.setDefinitions([upstreamDef(), modernDef()]);
  await host.whenSettled();
  gateway = new Gateway({
    host,
    logger,
    bridge,
    views: new GatewayViews({ profiles: () => ({ narrow: { tools: ['up__echo', 'up__progress'] } }) }),
    resultLimit: () => ({ maxTokens: 1000 }),
  });
  http = await GatewayHttpServer.start({ gateway, logger });
});

after(async () => {
  await http?.dispose();
  await gateway?.dispose();
  await host?.dispose();
});

async function legacyAgent(endpoint = ''): Promise<Client> {
  const client = new Client({ name: 'legacy', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Bob' } }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http.url + endpoint), {
      requestInit: { headers: { Authorization: `Bearer ${http.token}` } },
    }),
  );
  return client;
}

/** The fast path took `n` more agent calls and `n` more upstream frames than `before` (none when it is off). */
function tookFastPath(before: { gateway: number; trace: number }, n: number): void {
  const got = { gateway: gateway.paths().fast - before.gateway, trace: trace.paths('up').fast - before.trace };
  assert.deepEqual(got, FAST ? { gateway: n, trace: n } : { gateway: 0, trace: 0 });
}

function counts(): { gateway: number; trace: number } {
  return { gateway: gateway.paths().fast, trace: trace.paths('up').fast };
}

describe(`gateway fast path (${FAST ? 'on' : 'off'})`, { timeout: 120_000 }, () => {
  test('a plain call: the answer as sent, the frames counted in the gateway and in the trace', async () => {
    const client = await legacyAgent();
    try {
      const c0 = counts();
      const r = await client.callTool({ name: 'up__echo', arguments: { text: 'hello' } });
      assert.equal(text(r), 'hello');
      tookFastPath(c0, 1);
      const rec = trace
        .records('up')
        .filter((x) => x.method === 'tools/call')
        .at(-1);
      assert.equal(rec?.kind, 'response');
      assert.equal(rec?.path, FAST ? 'fast' : 'full');
    } finally {
      await closeAgent(client);
    }
  });

  test('a session the agent ends is gone from the gateway (its handlers still run behind the fast path)', async () => {
    const before = http.sessionCount();
    const client = await legacyAgent();
    assert.equal(text(await client.callTool({ name: 'up__echo', arguments: { text: 'hi' } })), 'hi');
    assert.equal(http.sessionCount(), before + 1);
    await closeAgent(client);
    await poll('the session to end', 10_000, () => Promise.resolve(http.sessionCount() === before || undefined), 25);
  });

  test('progress reaches the agent under its own token', async () => {
    const client = await legacyAgent();
    try {
      const c0 = counts();
      const seen: number[] = [];
      const r = await client.callTool(
        { name: 'up__progress', arguments: {} },
        { onprogress: (p) => seen.push(p.progress) },
      );
      assert.equal(text(r), 'done');
      assert.deepEqual(seen, [1, 2]);
      tookFastPath(c0, 1);
    } finally {
      await closeAgent(client);
    }
  });

  test('an agent that cancels: the server hears it, and the agent gets no answer', async () => {
    const client = await legacyAgent();
    try {
      const c0 = counts();
      const ready = new Promise<void>((resolve) => (started = resolve));
      const heard = new Promise<void>((resolve) => (aborted = resolve));
      const ctl = new AbortController();
      const call = client.callTool({ name: 'up__wait', arguments: {} }, { signal: ctl.signal });
      await withDeadline(ready, 'start of the call on the server');
      ctl.abort('changed my mind');
      await assert.rejects(call);
      await withDeadline(heard, 'cancellation heard by the server');
      tookFastPath(c0, 1);
      // The session goes on.
      assert.equal(text(await client.callTool({ name: 'up__echo', arguments: { text: 'after' } })), 'after');
    } finally {
      await closeAgent(client);
    }
  });

  test('resources/read and prompts/get: the answers, under the URIs the agent was shown', async () => {
    const client = await legacyAgent();
    try {
      const c0 = counts();
      const listed = (await client.listResources()).resources.find((r) => r.name === 'note');
      assert.ok(listed, 'the note is listed');
      const read = await client.readResource({ uri: listed.uri });
      assert.deepEqual(read.contents, [{ uri: listed.uri, mimeType: 'text/plain', text: 'a note' }]);
      const prompt = await client.getPrompt({ name: 'up__greet', arguments: { who: 'Ada' } });
      assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'hello Ada' } }]);
      tookFastPath(c0, 2);
      await assert.rejects(client.getPrompt({ name: 'up__nope', arguments: {} }), /unknown prompt/);
    } finally {
      await closeAgent(client);
    }
  });

  test("a profile's agent calls only its profile's tools", async () => {
    const client = await legacyAgent('/narrow');
    try {
      assert.equal(text(await client.callTool({ name: 'up__echo', arguments: { text: 'in' } })), 'in');
      await assert.rejects(
        client.callTool({ name: 'up__big', arguments: {} }),
        (err: unknown) => err instanceof ProtocolError && /unknown tool "up__big"/.test(err.message),
      );
    } finally {
      await closeAgent(client);
    }
  });

  test('a result over the limit is cut, and its pages read back whole', async () => {
    const client = await legacyAgent();
    try {
      const c0 = counts();
      const cut = text(await client.callTool({ name: 'up__big', arguments: {} }));
      assert.ok(cut.length < BIG.length, `not cut: ${cut.length} characters`);
      tookFastPath(c0, 1);
      const uri = /(mcp-host-result:\/\/[0-9a-f-]+)\?page=1/.exec(cut)?.[1];
      assert.ok(uri, cut.slice(-300));
      let whole = '';
      for (let page = 1; whole.length < BIG.length && page < 100; page++) {
        const r = await client.readResource({ uri: `${uri}?page=${page}` });
        whole += (r.contents[0] as { text: string }).text;
      }
      assert.equal(whole, BIG);
    } finally {
      await closeAgent(client);
    }
  });

  test("a server's question mid-call goes to the agent that made the call", async () => {
    const client = await legacyAgent();
    try {
      const c0 = counts();
      assert.equal(text(await client.callTool({ name: 'up__ask', arguments: {} })), 'accept: Bob');
      tookFastPath(c0, 1);
    } finally {
      await closeAgent(client);
    }
  });

  test('a server stopped mid-call: the call ends as a tool error, and the server serves again once started', async () => {
    const client = await legacyAgent();
    try {
      const ready = new Promise<void>((resolve) => (started = resolve));
      const call = client.callTool({ name: 'up__wait', arguments: {} });
      await withDeadline(ready, 'start of the call on the server');
      await host.stop('up');
      const r = await withDeadline(call, 'the answer after the stop');
      assert.equal(r.isError, true);
      assert.match(text(r), /up|stopped|closed/i);
      await host.start('up');
      assert.equal(text(await client.callTool({ name: 'up__echo', arguments: { text: 'back' } })), 'back');
    } finally {
      await closeAgent(client);
    }
  });

  test('era bridge: a 2026-07-28 agent answers a question as input_required; a legacy agent as a request', async () => {
    const modern = new Client(
      { name: 'modern', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    modern.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { Authorization: `Bearer ${http.token}` } },
      }),
    );
    const legacy = await legacyAgent();
    try {
      assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
      const g0 = gateway.paths().fast;
      // The modern agent's exchange is rewritten (input_required rounds): the SDK server's, the full path.
      assert.equal(text(await modern.callTool({ name: 'up__ask', arguments: {} })), 'accept: Ada');
      assert.equal(gateway.paths().fast, g0);
      // A server's input_required reaches a legacy agent as a request of its own.
      assert.equal(text(await legacy.callTool({ name: 'new__ask', arguments: {} })), 'accept: Bob');
    } finally {
      await modern.close();
      await closeAgent(legacy);
    }
  });
});
