/**
 * Remote and in-process connections against real servers: server-everything over SSE and
 * Streamable HTTP, the WebSocket fixture, the session-dropping HTTP fixture, an in-process McpServer.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Emitter } from '../../../src/core/events.js';
import { createHost, type McpHost, type HostError } from '../../../src/core/host.js';
import {
  MemoryLogger,
  def,
  startEverything,
  startPortServer,
  tempDir,
  textOf,
  waitFor,
  type RunningServer,
} from './helpers.js';

const dir = tempDir('remote');
const servers: RunningServer[] = [];
const hosts: McpHost[] = [];

/** Backoff comes through the host options (no hidden environment knob). */
function newHost(backoffBaseMs?: number): McpHost {
  const host = createHost({
    logger: new MemoryLogger(),
    blobDir: dir,
    env: {},
    ...(backoffBaseMs !== undefined ? { backoff: { baseMs: backoffBaseMs } } : {}),
  });
  hosts.push(host);
  return host;
}

let sharedHttp: Promise<RunningServer> | undefined;
/** One session-dropping HTTP fixture shared by the tests that do not stop it (saves a start-up). */
function httpFixture(): Promise<RunningServer> {
  sharedHttp ??= track(startPortServer('http-server.mjs', [], '/mcp'));
  return sharedHttp;
}

async function track(p: Promise<RunningServer>): Promise<RunningServer> {
  const s = await p;
  servers.push(s);
  return s;
}

after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  await Promise.all(servers.map((s) => s.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('remote transports', () => {
  test('server-everything over SSE and Streamable HTTP, side by side', async () => {
    const [sse, http] = await Promise.all([track(startEverything('sse')), track(startEverything('streamableHttp'))]);
    const host = newHost();
    host.setDefinitions([
      def('ev-sse', { type: 'sse', url: sse.url, headers: { 'x-test': '1' } }),
      def('ev-http', { type: 'http', url: http.url, headers: { 'x-test': '1' } }),
    ]);
    await host.whenSettled();
    for (const name of ['ev-sse', 'ev-http']) {
      const s = host.server(name)!;
      assert.equal(s.state.kind, 'connected', `${name}: ${JSON.stringify(s.state)}`);
      assert.ok(s.tools.some((t) => t.name === 'echo'));
      const r = await host.callTool(name, 'echo', { message: `via ${name}` });
      assert.match(textOf(r), new RegExp(`via ${name}`));
    }
    const seen: number[] = [];
    await host.callTool(
      'ev-http',
      'trigger-long-running-operation',
      { duration: 1, steps: 2 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    assert.ok(seen.length >= 1, 'progress over Streamable HTTP');
  });

  test('Streamable HTTP: custom headers and the Accept header on POSTs', async () => {
    const srv = await httpFixture();
    const host = newHost();
    host.setDefinitions([def('h', { type: 'http', url: srv.url, headers: { 'x-api-key': 'k123' } })]);
    await host.whenSettled();
    const headers = JSON.parse(textOf(await host.callTool('h', 'headers', {}))) as Record<string, string>;
    assert.equal(headers['x-api-key'], 'k123');
    assert.match(headers['accept'], /application\/json/);
    assert.match(headers['accept'], /text\/event-stream/);
  });

  test('session expired (404 + -32001): a new session and the call retried once', async () => {
    const srv = await httpFixture();
    const host = newHost();
    host.setDefinitions([def('h', { type: 'http', url: srv.url })]);
    await host.whenSettled();
    const stat = async (): Promise<number> =>
      (JSON.parse(textOf(await host.callTool('h', 'stats', {}))) as { opened: number }).opened;
    const before = await stat();
    await host.callTool('h', 'expire_session', {});
    const r = await host.callTool('h', 'echo', { text: 'after expiry' });
    assert.equal(textOf(r), 'echo: after expiry');
    assert.equal(await stat(), before + 1, 'exactly one new session');
    assert.equal(host.server('h')!.state.kind, 'connected');
  });

  test('session expired: a call still open on the old session says the server ended it, and is not repeated', async () => {
    const srv = await httpFixture();
    const host = newHost();
    host.setDefinitions([def('h', { type: 'http', url: srv.url })]);
    await host.whenSettled();
    const open = host.callTool('h', 'hang', {}).then(
      () => 'answered',
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    await host.callTool('h', 'expire_session', {});
    assert.equal(textOf(await host.callTool('h', 'echo', { text: 'renewed' })), 'echo: renewed');
    assert.match(await open, /h ended the session while the call was open .*may or may not have run/);
  });

  test('WebSocket with custom headers and subprotocol mcp; refused without the header', async () => {
    const srv = await track(startPortServer('ws-server.mjs', ['--require-header', 'x-api-key:secret']));
    const url = srv.url.replace('http:', 'ws:');
    const host = newHost();
    host.setDefinitions([
      def('ws', { type: 'ws', url, headers: { 'x-api-key': 'secret' } }),
      def('ws-bad', { type: 'ws', url }),
    ]);
    await host.whenSettled();
    assert.equal(host.server('ws')!.state.kind, 'connected');
    const headers = JSON.parse(textOf(await host.callTool('ws', 'headers', {}))) as Record<string, string>;
    assert.equal(headers['x-api-key'], 'secret');
    assert.equal(headers['protocol'], 'mcp');
    assert.equal(textOf(await host.callTool('ws', 'echo', { text: 'ws' })), 'echo: ws');
    // 401 on the upgrade means authentication is needed, not a retry loop.
    assert.equal(host.server('ws-bad')!.state.kind, 'needs-auth');
  });

  test('remote server restart: pending n of max while it is down, connected again when it is back', async () => {
    const first = await startPortServer('ws-server.mjs');
    servers.push(first);
    const url = first.url.replace('http:', 'ws:');
    // Backoff 2 s, 4 s, 8 s, 16 s: a window of 30 s for the server to come back on a loaded machine.
    const host = newHost(2000);
    host.setDefinitions([def('ws', { type: 'ws', url })]);
    await host.whenSettled();
    const pending = waitFor(host, 'ws', (s) => s.state.kind === 'pending' && s.state.attempt >= 2);
    const hung = host.callTool('ws', 'hang', {}, { timeoutMs: 120_000 }).then(
      () => undefined,
      (e: unknown) => e as HostError,
    );
    await first.stop();
    const err = await hung;
    assert.equal(err?.code, 'connection-closed', String(err));
    const p = await pending;
    assert.ok(p.state.kind === 'pending' && p.state.maxAttempts === 5);
    await assert.rejects(host.callTool('ws', 'echo', { text: 'x' }), (e: HostError) => e.code === 'reconnecting');
    const second = await track(startPortServer('ws-server.mjs', ['--port', String(first.port)]));
    assert.equal(second.port, first.port);
    await waitFor(host, 'ws', (s) => s.state.kind === 'connected');
    assert.equal(textOf(await host.callTool('ws', 'echo', { text: 'again' })), 'echo: again');
  });

  test('a remote server that stays down ends failed after the last attempt', async () => {
    const srv = await startPortServer('ws-server.mjs');
    servers.push(srv);
    const host = newHost(50);
    host.setDefinitions([def('ws', { type: 'ws', url: srv.url.replace('http:', 'ws:') })]);
    await host.whenSettled();
    const attempts: number[] = [];
    host.onDidChangeServer((e) => {
      if (e.snapshot?.state.kind === 'pending') attempts.push(e.snapshot.state.attempt);
    });
    await srv.stop();
    const s = await waitFor(host, 'ws', (x) => x.state.kind === 'failed');
    assert.ok(
      s.state.kind === 'failed' && /gave up reconnecting after 5 attempts/.test(s.state.error.message),
      JSON.stringify(s.state),
    );
    assert.ok(Math.max(...attempts) === 5, `attempts seen: ${attempts.join(',')}`);
  });

  test('Streamable HTTP server going away: three terminal errors close the connection, backoff brings it back', async () => {
    const first = await startPortServer('http-server.mjs', [], '/mcp');
    servers.push(first);
    const host = newHost(2000);
    host.setDefinitions([def('h', { type: 'http', url: first.url })]);
    await host.whenSettled();
    const pending = waitFor(host, 'h', (s) => s.state.kind === 'pending' && s.state.attempt >= 2);
    await first.stop();
    // The SSE GET drops, the SDK's own retries fail: three terminal errors in a row close the transport.
    await pending;
    await assert.rejects(host.callTool('h', 'echo', { text: 'x' }), (e: HostError) => e.code === 'reconnecting');
    const second = await track(startPortServer('http-server.mjs', ['--port', String(first.port)], '/mcp'));
    assert.equal(second.port, first.port);
    await waitFor(host, 'h', (s) => s.state.kind === 'connected');
    assert.equal(textOf(await host.callTool('h', 'echo', { text: 'back' })), 'echo: back');
  });

  test('unreachable URL fails with a message naming it', async () => {
    const host = newHost();
    host.setDefinitions([def('gone', { type: 'http', url: 'http://127.0.0.1:9/mcp' })]);
    await host.whenSettled();
    const s = host.server('gone')!;
    assert.equal(s.state.kind, 'failed');
    assert.ok(s.state.kind === 'failed' && /127\.0\.0\.1:9/.test(s.state.error.message), JSON.stringify(s.state));
  });
});

describe('client capabilities through the host', () => {
  test('roots and elicitation reach the ports; roots/list_changed is sent when the folders change', async () => {
    const folders = new Emitter<void>();
    let roots = [{ uri: 'file:///work/a', name: 'a' }];
    const asked: string[] = [];
    let rootsChanged = 0;
    let heardRootsChanged!: () => void;
    const rootsChangedHeard = new Promise<void>((resolve) => (heardRootsChanged = resolve));
    const host = createHost({
      logger: new MemoryLogger(),
      blobDir: dir,
      env: {},
      roots: { roots: () => roots, onDidChange: folders.event },
      elicitation: {
        async elicit(server, req) {
          asked.push(`${server}:${req.mode}:${req.message}`);
          return { action: 'accept', content: { answer: 'yes' } };
        },
      },
    });
    hosts.push(host);
    host.setDefinitions([
      def('caps', {
        type: 'inprocess',
        id: 'caps',
        async start(transport: Transport) {
          const server = new McpServer({ name: 'caps', version: '1.0.0' });
          server.server.setNotificationHandler('notifications/roots/list_changed', async () => {
            rootsChanged++;
            heardRootsChanged();
          });
          server.registerTool('roots', {}, async () => ({
            content: [{ type: 'text', text: JSON.stringify((await server.server.listRoots()).roots) }],
          }));
          server.registerTool('ask', {}, async () => {
            const r = await server.server.elicitInput({
              mode: 'form',
              message: 'Proceed?',
              requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } },
            });
            return { content: [{ type: 'text', text: JSON.stringify(r) }] };
          });
          await server.connect(transport);
        },
      }),
    ]);
    await host.whenSettled();
    assert.deepEqual(JSON.parse(textOf(await host.callTool('caps', 'roots', {}))), [
      { uri: 'file:///work/a', name: 'a' },
    ]);
    const answer = JSON.parse(textOf(await host.callTool('caps', 'ask', {}))) as {
      action: string;
      content: { answer: string };
    };
    assert.equal(answer.action, 'accept');
    assert.equal(answer.content.answer, 'yes');
    assert.deepEqual(asked, ['caps:form:Proceed?']);
    roots = [...roots, { uri: 'file:///work/b', name: 'b' }];
    folders.fire();
    await rootsChangedHeard;
    assert.equal(rootsChanged, 1);
    assert.equal((JSON.parse(textOf(await host.callTool('caps', 'roots', {}))) as unknown[]).length, 2);
  });
});

describe('in-process servers', () => {
  test('connects through a linked pair and serves calls', async () => {
    const host = newHost();
    let instances = 0;
    host.setDefinitions([
      def('inproc', {
        type: 'inprocess',
        id: 'test-inproc',
        async start(transport: Transport) {
          instances++;
          const server = new McpServer({ name: 'inproc', version: '1.0.0' });
          server.registerTool('double', { inputSchema: z.object({ n: z.number() }) }, async ({ n }) => ({
            content: [{ type: 'text', text: String(n * 2) }],
          }));
          await server.connect(transport);
        },
      }),
    ]);
    await host.whenSettled();
    assert.equal(host.server('inproc')!.state.kind, 'connected');
    assert.equal(textOf(await host.callTool('inproc', 'double', { n: 21 })), '42');
    await host.restart('inproc');
    assert.equal(instances, 2);
    assert.equal(textOf(await host.callTool('inproc', 'mcp__inproc__double', { n: 2 })), '4');
  });
});
