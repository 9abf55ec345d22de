// `mcp-host serve --http` as a process, as an operator runs it: configured only from its --config
// file (the folder's own servers are not served, even with --allow-project-servers), healthy and
// then ready, and on SIGTERM it drains: the slow call in flight completes, a new request gets 503
// with `Connection: close`, readiness turns 503, the process exits 0, and the call is in the audit log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHarness, ROOT, type Harness } from '../../cli/harness.js';
import { serverScript } from '../../../support/fixture-servers.js';
import { poll } from '../../../support/poll.js';
import { withDeadline } from '../../../support/wait.js';
import { text } from '../helpers.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';
import { gatewayPathEnv } from '../../../support/gateway-path.js';

const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
let h: Harness;
let idp: TeamIdp;
let child: ChildProcess | undefined;

before(async () => {
  [h, idp] = await Promise.all([createHarness(), startTeamIdp()]);
});

after(async () => {
  child?.kill('SIGKILL');
  await idp?.close();
  await h?.dispose();
});

describe('serve --http refuses to start unsafely', { timeout: 60_000 }, () => {
  test('without an authorization server, and off loopback without --allow-remote and TLS', async () => {
    const ws = await h.workspace('refuse', {});
    const bare = join(h.dir, 'no-auth.json');
    writeFileSync(bare, JSON.stringify({ mcpServers: {} }));
    const noAuth = await h.run(['serve', '--http', '--config', bare], { cwd: ws });
    assert.equal(noAuth.code, 2);
    assert.match(noAuth.stderr, /no authorization server configured/);
    const remote = await h.run(['serve', '--http', '--host', '0.0.0.0', '--config', bare], { cwd: ws });
    assert.equal(remote.code, 2);
    assert.match(remote.stderr, /--allow-remote/);
    const plain = await h.run(['serve', '--http', '--host', '0.0.0.0', '--allow-remote', '--config', bare], {
      cwd: ws,
    });
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /--tls-cert and --tls-key, or --insecure-http/);
    const authed = join(h.dir, 'auth-no-resource.json');
    writeFileSync(authed, JSON.stringify({ mcpServers: {}, gateway: { auth: { issuer: idp.issuer } } }));
    const noResource = await h.run(
      ['serve', '--http', '--host', '0.0.0.0', '--allow-remote', '--insecure-http', '--config', authed],
      { cwd: ws },
    );
    assert.equal(noResource.code, 2);
    assert.match(noResource.stderr, /gateway\.auth\.resource/);
    const profile = await h.run(['serve', '--http', '--profile', 'eng', '--config', authed], { cwd: ws });
    assert.equal(profile.code, 2);
    assert.match(profile.stderr, /--profile is chosen per agent/);
    const stray = await h.run(['serve', '--port', '8080'], { cwd: ws });
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /--port is for the team gateway/);
  });
});

describe('serve --http drains on SIGTERM', { timeout: 180_000 }, () => {
  test('the call in flight completes, new requests get 503, exit 0, the call audited', async () => {
    const ws = await h.workspace('drain', {
      folderserver: { command: process.execPath, args: [STDIO, '--name', 'f'] },
    });
    const config = join(h.dir, 'gateway.json');
    const audit = join(h.dir, 'audit.jsonl');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { slow: { command: process.execPath, args: [STDIO, '--name', 'slow'] } },
        gateway: { auth: { issuer: idp.issuer, requiredScopes: [SCOPE] }, auditLog: audit, drainSeconds: 60 },
      }),
    );
    const proc = spawn(process.execPath, [h.cli, 'serve', '--http', '--port', '0', '--config', config], {
      cwd: ws,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: h.dir,
        MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
        MCP_HOST_ALLOW_PROJECT_SERVERS: '1',
        ...gatewayPathEnv(),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const [, url, resource] = await poll(
      'the gateway to say where it listens',
      60_000,
      async () => /listening on (\S+) \(resource (\S+)\)/.exec(stderr) ?? undefined,
    );
    const origin = new URL(url!).origin;
    assert.equal((await fetch(`${origin}/healthz`)).status, 200);
    await poll('ready', 30_000, async () => ((await fetch(`${origin}/readyz`)).status === 200 ? true : undefined));

    const token = await idp.tokenFor('alice', resource!);
    const client = new Client({ name: 'draining-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url!), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const names = await poll('the slow server’s tools', 30_000, async () => {
      const n = (await client.listTools()).tools.map((t) => t.name);
      return n.includes('slow__slow') ? n : undefined;
    });
    assert.ok(!names.some((n) => n.startsWith('folderserver__')), `a folder's server is never served: ${names.join()}`);

    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    const call = client.callTool(
      { name: 'slow__slow', arguments: { ms: 4000, steps: 4 } },
      {
        onprogress: () => progressed(),
        timeout: 60_000,
      },
    );
    await withDeadline(firstProgress, 'the slow call under way', 30_000);
    proc.kill('SIGTERM');
    await poll(
      'readiness to turn 503',
      10_000,
      async () => ((await fetch(`${origin}/readyz`)).status === 503 ? true : undefined),
      50,
    );
    const refused = await fetch(url!, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('connection'), 'close');
    assert.equal(text(await call), 'slept 4000');
    assert.equal(await withDeadline(exit, 'serve --http to exit', 60_000), 0, stderr);
    const lines = readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const slow = lines.find((l) => l.name === 'slow');
    assert.ok(slow, `the call is audited: ${JSON.stringify(lines)}`);
    assert.equal(slow.sub, 'alice');
    assert.equal(slow.server, 'slow');
    assert.equal(slow.outcome, 'ok');
    assert.ok(typeof slow.durationMs === 'number' && slow.durationMs >= 3000, `duration ${String(slow.durationMs)}`);
    await client.close().catch(() => undefined);
  });
});
