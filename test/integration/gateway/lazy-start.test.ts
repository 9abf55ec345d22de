/**
 * The gateway in front of a host with `startServers: 'onFirstUse'`: an agent is offered the cached
 * tools of a server that has not started, and its first call starts that server (one process) and
 * gets the server's answer. Runs on both gateway paths (scripts/test.mjs): on the fast path the call
 * is taken as a frame and sent upstream as one on the connection it has just started.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway, GatewayBridge, GatewayHttpServer } from '../../../src/core/gateway/index.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { ListCache } from '../../../src/core/connection/list-cache.js';
import { systemClock } from '../../../src/core/ports.js';
import { TraceHub } from '../../../src/core/trace/index.js';
import { MemoryKeyValueStore } from '../../support/fakes.js';
import { MemoryLogger, stdioDef, tempDir, waitFor } from '../connection/helpers.js';
import { closeAgent, RecordingElicitation, text } from './helpers.js';

const FAST = process.env.MCP_HOST_GATEWAY_FAST_PATH !== '0';
const record = path.join(tempDir('gw-lazy-record'), 'events');
const d = stdioDef('lazy', ['--record', record]);
const kv = new MemoryKeyValueStore();
const trace = new TraceHub({ enabled: '*' });
let host: McpHost;
let gateway: Gateway;
let http: GatewayHttpServer;

/** Processes of the fixture that started, from its record file. */
function starts(): number {
  if (!fs.existsSync(record)) return 0;
  return fs
    .readFileSync(record, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('start ')).length;
}

function newHost(logger: MemoryLogger, bridge?: GatewayBridge, lazy = false): McpHost {
  return createHost({
    logger,
    blobDir: tempDir('gw-lazy-blobs'),
    env: {},
    listCache: new ListCache(kv, systemClock),
    ...(lazy ? { startServers: 'onFirstUse' as const } : {}),
    ...(bridge ? { elicitation: bridge, features: bridge.featureOptions() } : {}),
    wrapTransport: (def, t) => trace.attach(def, t),
  });
}

before(async () => {
  const logger = new MemoryLogger();
  // An earlier run, which connects once and leaves the server's lists in the cache.
  const first = newHost(logger);
  first.setDefinitions([d]);
  await waitFor(first, d.name, (s) => s.state.kind === 'connected');
  await first.dispose();
  assert.equal(starts(), 1);

  const bridge = new GatewayBridge(new RecordingElicitation());
  host = newHost(logger, bridge, true);
  host.setDefinitions([d]);
  await host.whenSettled();
  gateway = new Gateway({ host, logger, bridge });
  http = await GatewayHttpServer.start({ gateway, logger });
});

after(async () => {
  await http?.dispose();
  await gateway?.dispose();
  await host?.dispose();
});

describe(`gateway over a lazily started server (fast path ${FAST ? 'on' : 'off'})`, { timeout: 120_000 }, () => {
  test("an agent sees the cached tools; its first call starts the server once and gets the server's answer", async () => {
    assert.equal(host.server(d.name)?.state.kind, 'disabled');
    const client = new Client({ name: 'lazy-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { Authorization: `Bearer ${http.token}` } },
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('lazy__echo'), names.join(', '));
      assert.equal(starts(), 1, 'listing starts nothing');

      const before = { ...gateway.paths(), upstream: trace.paths(d.name).fast };
      const r = await client.callTool({ name: 'lazy__echo', arguments: { text: 'hi' } });
      assert.equal(text(r), 'echo: hi');
      assert.equal(starts(), 2, 'the call started exactly one process');
      assert.equal(host.server(d.name)?.state.kind, 'connected');
      const took = {
        fast: gateway.paths().fast - before.fast,
        full: gateway.paths().full - before.full,
        upstream: trace.paths(d.name).fast - before.upstream,
      };
      assert.deepEqual(took, FAST ? { fast: 1, full: 0, upstream: 1 } : { fast: 0, full: 1, upstream: 0 });
    } finally {
      await closeAgent(client);
    }
  });
});
