// The gateway over Streamable HTTP with real servers behind it (two stdio fixture servers and an
// in-process one) and the SDK's Client in front, as an agent would use it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stdioDef, tempDir, waitFor } from '../connection/helpers.js';
import {
  agent,
  askerDef,
  closeAgent,
  holdStream,
  rawInitialize,
  rawPost,
  startRig,
  text,
  untilAgents,
  type Rig,
} from './helpers.js';
import { cancelReaches, progressReaches } from '../../support/era-matrix.js';

let rig: Rig;
let client: Client;
const record = join(tempDir('gw-record'), 'alpha.log');
const alpha = (): ReturnType<typeof stdioDef> => stdioDef('alpha', ['--record', record]);

before(async () => {
  rig = await startRig([alpha(), stdioDef('beta'), askerDef()]);
  client = await agent(rig, { elicitation: { form: {} } });
});

after(async () => {
  if (client) await closeAgent(client);
  await rig?.dispose();
});

describe('gateway over HTTP', { timeout: 120_000 }, () => {
  test('lists the union of both servers’ tools as <server>__<tool> and calls one', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['alpha__echo', 'beta__echo', 'alpha__slow', 'beta__add_tool', 'asker__ask'])
      assert.ok(names.includes(n), `${n} missing from ${names.join(', ')}`);
    assert.equal(new Set(names).size, names.length);
    assert.ok(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n)));
    const r = await client.callTool({ name: 'beta__echo', arguments: { text: 'hi' } });
    assert.equal(text(r), 'echo: hi');
    assert.notEqual(r.isError, true);
  });

  test('a bad call comes back as a tool error, not a crash', async () => {
    const r = await client.callTool({ name: 'alpha__echo', arguments: { text: 42 } });
    assert.equal(r.isError, true);
    assert.match(text(r), /invalid arguments/);
  });

  test('prompts are <server>__<prompt>; colliding resource URIs are wrapped per server and read back', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), ['alpha__greet', 'beta__greet']);
    const got = await client.getPrompt({ name: 'beta__greet' });
    assert.equal((got.messages[0]!.content as { text: string }).text, 'hello');
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri).sort();
    // Both fixtures offer fixture://hello: each is made unique, reversibly.
    assert.deepEqual(uris, ['mcp-host://alpha/fixture://hello', 'mcp-host://beta/fixture://hello']);
    const read = await client.readResource({ uri: 'mcp-host://beta/fixture://hello' });
    assert.equal(read.contents[0]!.uri, 'mcp-host://beta/fixture://hello');
    assert.equal((read.contents[0] as { text: string }).text, 'hello resource');
  });

  test('progress from the server reaches the agent', async () => {
    assert.equal(await progressReaches(client, 'alpha__slow', { ms: 600, steps: 3 }), 'slept 600');
  });

  test('an agent’s cancellation reaches the server', async () => {
    await cancelReaches(client, 'alpha__hang', () =>
      readFileSync(record, 'utf8')
        .split('\n')
        .some((l) => l.startsWith('cancelled')),
    );
  });

  test('elicitation goes to an agent that declared it; without the capability the editor is asked', async () => {
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const r = await client.callTool({ name: 'asker__ask', arguments: {} });
    assert.equal(text(r), 'accept: Ada');
    assert.deepEqual(asked, ['[asker] Your name?']);
    assert.deepEqual(rig.fallback.asked, []);

    const plain = await agent(rig);
    try {
      const r2 = await plain.callTool({ name: 'asker__ask', arguments: {} });
      assert.equal(text(r2), 'accept: from the editor');
      assert.deepEqual(rig.fallback.asked, ['Your name?']);
    } finally {
      await closeAgent(plain);
    }
  });

  test('a server’s log lines reach the agent, named after the server', async () => {
    const heard = new Promise<{ logger?: string; data: unknown }>((resolve) =>
      client.setNotificationHandler('notifications/message', (n) => resolve(n.params)),
    );
    await client.callTool({ name: 'asker__log', arguments: {} });
    const line = await heard;
    assert.equal(line.logger, 'asker');
    assert.equal(line.data, 'careful now');
  });

  test('list_changed: when a server is added, and when a server’s own tools change', async () => {
    let changed = 0;
    let notify: () => void = () => {};
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
      notify();
    });
    const next = (): Promise<void> => new Promise((resolve) => (notify = resolve));
    const added = next();
    rig.host.setDefinitions([alpha(), stdioDef('beta'), askerDef(), stdioDef('gamma')]);
    await waitFor(rig.host, 'gamma', (s) => s.state.kind === 'connected');
    await added;
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'gamma__echo'));

    const grown = next();
    await client.callTool({ name: 'gamma__add_tool', arguments: { name: 'fresh' } });
    await grown;
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'gamma__fresh'));
    assert.ok(changed >= 2);
  });

  test('counts the connected agents; an agent that ends its session is no longer counted', async () => {
    // An agent is there once its event stream is open, which the SDK client opens after connecting.
    await untilAgents(rig.gateway, 1);
    const other = await agent(rig);
    await untilAgents(rig.gateway, 2);
    assert.equal(rig.http.liveSessionCount(), 2, 'the status bar reads the same count');
    await closeAgent(other);
    await untilAgents(rig.gateway, 1);
  });
});

describe('agents that are there', () => {
  test('a session counts as live while it holds a connection (an agent’s event stream), not after a one-off request', async () => {
    const port = rig.http.port;
    const base = rig.http.liveSessionCount();
    const r = await rawInitialize(port, { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${rig.http.token}` });
    assert.equal(r.status, 200);
    // Initialized, answered, gone without DELETE (a health check): not an agent that is there.
    assert.equal(rig.http.liveSessionCount(), base);
    const up = new Promise<void>((resolve) => {
      const sub = rig.http.onDidChangeLive(() => {
        if (rig.http.liveSessionCount() === base + 1) {
          sub.dispose();
          resolve();
        }
      });
    });
    const close = await holdStream(port, rig.http.token, r.session!);
    await up;
    const down = new Promise<void>((resolve) => {
      const sub = rig.http.onDidChangeLive(() => {
        if (rig.http.liveSessionCount() === base) {
          sub.dispose();
          resolve();
        }
      });
    });
    close();
    await down;
  });
});

describe('gateway security', () => {
  test('401 without a token and with a wrong one', async () => {
    const host = { Host: `127.0.0.1:${rig.http.port}` };
    assert.equal(await rawPost(rig.http.port, host), 401);
    assert.equal(await rawPost(rig.http.port, { ...host, Authorization: 'Bearer nope' }), 401);
    assert.equal(await rawPost(rig.http.port, { ...host, Authorization: `Bearer ${rig.http.token}x` }), 401);
  });

  test('403 with a browser Origin or a foreign Host, even with the right token', async () => {
    const auth = { Authorization: `Bearer ${rig.http.token}` };
    assert.equal(
      await rawPost(rig.http.port, { ...auth, Host: `127.0.0.1:${rig.http.port}`, Origin: 'https://evil.example' }),
      403,
    );
    assert.equal(await rawPost(rig.http.port, { ...auth, Host: `evil.example:${rig.http.port}` }), 403);
    // The same request without the offending header gets through.
    assert.equal(await rawPost(rig.http.port, { ...auth, Host: `localhost:${rig.http.port}` }), 200);
  });

  test('sessions are capped; at the cap an idle session (an agent gone without ending it) makes room', async () => {
    const port = rig.http.port;
    const headers = { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${rig.http.token}` };
    const closers: (() => void)[] = [];
    try {
      // New sessions with an open event stream (live agents) push out the idle ones earlier tests
      // left, until only live sessions remain: then the next one is refused.
      let status = 0;
      for (let i = 0; i < 10 && status !== 503; i++) {
        const r = await rawInitialize(port, headers);
        status = r.status;
        if (r.session) closers.push(await holdStream(port, rig.http.token, r.session));
      }
      assert.equal(status, 503);
      assert.equal(rig.http.sessionCount(), 4);
      // One agent goes away without DELETE: its session turns idle and the next agent gets its place.
      closers.pop()!();
      const next = await (async () => {
        for (;;) {
          const r = await rawInitialize(port, headers);
          if (r.status !== 503) return r;
          // The closed stream is noticed when its socket closes; ask again once it did.
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      assert.equal(next.status, 200);
      assert.equal(rig.http.sessionCount(), 4);
    } finally {
      for (const c of closers) c();
    }
  });
});

describe('gateway session requests', () => {
  test('a session’s POST that is not JSON, or too large, is refused; the session goes on', async () => {
    const transport = client.transport as StreamableHTTPClientTransport;
    const post = (body: string): Promise<Response> =>
      fetch(rig.http.url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${rig.http.token}`,
          'Mcp-Session-Id': transport.sessionId!,
          'Mcp-Protocol-Version': transport.protocolVersion ?? '',
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body,
      });
    assert.equal((await post('{"jsonrpc": "2.0", "id": 1, ')).status, 400);
    assert.equal((await post(`"${'x'.repeat(4 * 1024 * 1024)}"`)).status, 413);
    const ok = await post(JSON.stringify({ jsonrpc: '2.0', id: 'raw-1', method: 'tools/list', params: {} }));
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /alpha__echo/);
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'beta__echo'));
  });
});
