/**
 * Both protocol eras against fixtures on SDK v2 (modern-server.mjs): a modern-only Streamable HTTP
 * server (`legacy: 'reject'`), one in the SDK's default posture (`legacy: 'stateless'`) and a stdio
 * one, each with server-everything style tools. Every client feature runs on 2026-07-28 through
 * `input_required` rounds, and the verdict is remembered so a known server is not probed again.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { createHost, type McpHost } from '../../../src/core/host.js';
import type { ElicitationPort, HostOptions } from '../../../src/core/host-api.js';
import type { KeyValueStore } from '../../../src/core/ports.js';
import {
  EVERYTHING,
  FIXTURES,
  MemoryLogger,
  def,
  isAlive,
  startPortServer,
  tempDir,
  textOf,
  waitFor,
} from './helpers.js';
import { serverScript } from '../../support/fixture-servers.js';

const dir = tempDir('eras');
const MODERN = serverScript(path.join(FIXTURES, 'modern-server.mjs'));
const hosts: McpHost[] = [];
const stops: (() => Promise<void>)[] = [];

after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  await Promise.all(stops.map((s) => s()));
  fs.rmSync(dir, { recursive: true, force: true });
});

const asked: string[] = [];
const elicitation: ElicitationPort = {
  elicit: (_s, req) => {
    asked.push(req.mode === 'url' ? `url ${req.url}` : `form ${req.message}`);
    return Promise.resolve(req.mode === 'form' ? { action: 'accept', content: { name: 'Ada' } } : { action: 'accept' });
  },
};
const sampling = {
  createMessage(_server: string, p: CreateMessageRequestParams): Promise<CreateMessageResult> {
    return Promise.resolve({
      role: 'assistant',
      model: 'fake-model',
      content: { type: 'text', text: `hi from ${p.messages.length} message(s)` },
    });
  },
};
const roots: HostOptions['roots'] = {
  roots: () => [{ uri: 'file:///work/project', name: 'project' }],
  onDidChange: () => ({ dispose() {} }),
};

function memory(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: <T>(k: string) => data.get(k) as T | undefined, update: async (k, v) => void data.set(k, v) };
}

function newHost(o: Partial<HostOptions> = {}): { host: McpHost; log: MemoryLogger } {
  const log = new MemoryLogger();
  const host = createHost({
    logger: log,
    blobDir: dir,
    elicitation,
    roots,
    features: { sampling, logLevel: () => 'debug' },
    ...o,
  });
  hosts.push(host);
  return { host, log };
}

async function httpServer(legacy: 'reject' | 'stateless', record: string): Promise<string> {
  const s = await startPortServer('modern-server.mjs', ['--http', '--legacy', legacy, '--record', record], '/mcp');
  stops.push(() => s.stop());
  return s.url;
}

const lines = (file: string): string[] =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];

async function connected(host: McpHost, name: string): Promise<void> {
  await waitFor(host, name, (s) => s.state.kind === 'connected' || s.state.kind === 'failed');
  const s = host.server(name)!;
  assert.equal(s.state.kind, 'connected', JSON.stringify(s.state));
}

/** Every client feature through the host, whatever the era. */
async function everyFeature(host: McpHost, name: string): Promise<void> {
  assert.equal(textOf(await host.callTool(name, 'echo', { text: 'hi' })), 'hi');
  assert.equal(textOf(await host.callTool(name, 'confirm', {})), 'elicitation accept {"name":"Ada"}');
  assert.equal(textOf(await host.callTool(name, 'open-link', {})), 'url elicitation accept');
  assert.equal(textOf(await host.callTool(name, 'ask-model', {})), 'model said hi from 1 message(s)');
  assert.equal(textOf(await host.callTool(name, 'roots', {})), '["file:///work/project"]');
  const read = await host.readResource(name, 'fixture://readme');
  assert.match(JSON.stringify(read.contents), /readme/);
  const prompt = await host.getPrompt(name, 'greet', { who: 'Ada' });
  assert.match(JSON.stringify(prompt.messages), /Hello Ada/);
}

describe('a modern-only Streamable HTTP server (createMcpHandler, legacy: reject)', () => {
  test('connects on 2026-07-28 and every client feature works through input_required rounds', async () => {
    const record = path.join(dir, 'reject.log');
    const url = await httpServer('reject', record);
    const { host, log } = newHost();
    host.setDefinitions([def('modern', { type: 'http', url })]);
    await connected(host, 'modern');
    const state = host.server('modern')!.state;
    assert.equal(state.kind === 'connected' && state.protocolVersion, '2026-07-28');
    assert.equal(textOf(await host.callTool('modern', 'era', {})), 'modern');
    await everyFeature(host, 'modern');
    assert.ok(asked.includes('form Your name?') && asked.includes('url https://example.com/sign-in'));
    // The level the user picked travels in _meta: the server's log lines reach the server's log.
    await host.callTool('modern', 'log', {});
    assert.match(log.lines.join('\n'), /modern log debug/);
    assert.deepEqual(lines(record), ['server/discover'], 'one probe, never initialize');
  });

  test('a host that stays on 2025-11-25 is refused with the server’s reason', async () => {
    const url = await httpServer('reject', path.join(dir, 'reject-legacy.log'));
    const { host } = newHost({ eraNegotiation: 'legacy' });
    host.setDefinitions([def('modern', { type: 'http', url })]);
    await waitFor(host, 'modern', (s) => s.state.kind === 'failed');
    assert.match(JSON.stringify(host.server('modern')!.state), /Unsupported protocol version|2026-07-28/);
  });
});

describe('a default-posture server (createMcpHandler, legacy: stateless)', () => {
  test('negotiates 2026-07-28, so elicitation, sampling and roots reach it (2025 statelessly could not)', async () => {
    const url = await httpServer('stateless', path.join(dir, 'stateless.log'));
    const { host } = newHost();
    host.setDefinitions([def('posture', { type: 'http', url })]);
    await connected(host, 'posture');
    assert.equal(textOf(await host.callTool('posture', 'era', {})), 'modern');
    await everyFeature(host, 'posture');
  });
});

describe('a stdio server on SDK v2 (serveStdio)', () => {
  test('the probe runs in place: one process, modern era, every feature; stop leaves nothing behind', async () => {
    const record = path.join(dir, 'stdio.log');
    const { host } = newHost();
    host.setDefinitions([
      def('local', { type: 'stdio', command: process.execPath, args: [MODERN, '--record', record] }),
    ]);
    await connected(host, 'local');
    const pid = host.pid('local')!;
    assert.equal(textOf(await host.callTool('local', 'era', {})), 'modern');
    await everyFeature(host, 'local');
    assert.deepEqual(lines(record), ['server/discover'], 'the probe and the session share the one process');
    await host.dispose();
    assert.equal(isAlive(pid), false, 'the server process is gone');
  });

  test('the verdict is remembered by definition: a restart adopts it without a probe', async () => {
    const record = path.join(dir, 'stdio-verdict.log');
    const store = memory();
    const stdio = def('local', { type: 'stdio', command: process.execPath, args: [MODERN, '--record', record] });
    const first = newHost({ eraStore: store }).host;
    first.setDefinitions([stdio]);
    await connected(first, 'local');
    await first.dispose();
    assert.equal(store.data.size, 1);
    assert.doesNotMatch(JSON.stringify([...store.data.values()]), /modern-server\.mjs/, 'keyed by a hash only');
    const second = newHost({ eraStore: store }).host;
    second.setDefinitions([stdio]);
    await connected(second, 'local');
    assert.equal(textOf(await second.callTool('local', 'era', {})), 'modern');
    assert.deepEqual(lines(record), ['server/discover'], 'the second host did not probe');
  });

  test('a legacy server (SDK v2 on 2025-11-25 only) is probed once, then connects straight with initialize', async () => {
    const store = memory();
    const everything = def('everything', {
      type: 'stdio',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
    });
    for (let i = 0; i < 2; i++) {
      const { host, log } = newHost({ eraStore: store });
      host.setDefinitions([everything]);
      await connected(host, 'everything');
      const state = host.server('everything')!.state;
      assert.equal(state.kind === 'connected' && state.protocolVersion, '2025-11-25');
      assert.equal(/negotiated/.test(log.lines.join('\n')), i === 0, 'only the first connect probes');
      await host.dispose();
    }
  });
});
