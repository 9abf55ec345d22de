// `mcp-host serve`: the bundled CLI started as a client would start it (stdio), a workspace
// `.mcp.json` with two real servers, and the SDK's Client in front.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { EVERYTHING, createHarness, type Harness } from '../cli/harness.js';
import { text, untilTools, gatewayPathEnv } from './helpers.js';

let h: Harness;
let ws: string;
let client: Client;
let toolsChanged: () => void = () => {};

function servers(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    errors: { command: process.execPath, args: [h.fixture('errors-server')] },
    // An entry that would run serve inside itself is recognised and never started.
    loop: { command: 'mcp-host', args: ['serve'] },
    ...extra,
  };
}

before(async () => {
  h = await createHarness();
  ws = await h.workspace('serve', servers());
  client = new Client(
    { name: 'serve-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  client.setNotificationHandler('notifications/tools/list_changed', () => toolsChanged());
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
  client.setRequestHandler('sampling/createMessage', (req) => ({
    model: 'agent-model',
    role: 'assistant',
    content: { type: 'text', text: `sampled: ${(req.params.messages[0]!.content as { text: string }).text}` },
  }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [h.cli, 'serve', '--allow-project-servers'],
    cwd: ws,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: h.dir,
      MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
      MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
      ...gatewayPathEnv(),
    },
    stderr: 'pipe',
  });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  await h?.dispose();
});

describe('mcp-host serve', { timeout: 120_000 }, () => {
  test('lists the union of both servers’ tools and calls one', async () => {
    const names = await untilTools(
      client,
      (n) => n.includes('everything__echo') && n.some((x) => x.startsWith('errors__')),
      'both servers listed',
    );
    assert.ok(names.includes('everything__echo'), names.join(', '));
    assert.ok(
      names.some((n) => n.startsWith('errors__')),
      names.join(', '),
    );
    assert.ok(!names.some((n) => n.startsWith('loop__')));
    const r = await client.callTool({ name: 'everything__echo', arguments: { message: 'via serve' } });
    assert.match(text(r), /via serve/);
  });

  test('elicitation from a server reaches the agent; progress too', async () => {
    const r = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
    assert.match(text(r), /Ada/);
    const seen: number[] = [];
    await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 1.5, steps: 3 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    assert.deepEqual(seen.slice(0, 2), [1, 2]);
  });

  test('sampling from a server is answered by the agent’s model', async () => {
    const r = await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'a haiku' } });
    assert.match(text(r), /sampled: .*a haiku/);
    assert.match(text(r), /agent-model/);
  });

  test('completion/complete and resource subscriptions are offered and reach the server', async () => {
    assert.equal(client.getServerCapabilities()?.resources?.subscribe, true);
    const r = await client.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'Eng' },
    });
    assert.deepEqual(r.completion.values, ['Engineering']);
    const uri = (await client.listResources()).resources[0]!.uri;
    await client.subscribeResource({ uri });
    await client.unsubscribeResource({ uri });
  });

  test('list_changed when a server is added to .mcp.json', async () => {
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
    // The notification may come for the connect of one server while another is still starting.
    while (!names.some((n) => n.startsWith('second__'))) {
      await new Promise<void>((resolve) => (toolsChanged = resolve));
      names = (await client.listTools()).tools.map((t) => t.name);
    }
    assert.ok(names.includes('everything__echo'));
  });
});

describe('mcp-host serve --exclude', { timeout: 120_000 }, () => {
  test('leaves the named servers out (repeatable) and says which names match no server', async () => {
    const other = new Client({ name: 'serve-exclude-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [h.cli, 'serve', '--allow-project-servers', '--exclude', 'errors', '--exclude=no-such-server'],
      cwd: ws,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: h.dir,
        MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
        MCP_HOST_BLOB_DIR: join(h.dir, 'blobs-exclude'),
        ...gatewayPathEnv(),
      },
      stderr: 'pipe',
    });
    let stderr = '';
    const warned = new Promise<void>((resolve) => {
      transport.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('--exclude no-such-server')) resolve();
      });
    });
    try {
      await other.connect(transport);
      const names = await untilTools(other, (n) => n.includes('everything__echo'), 'everything listed');
      assert.ok(names.includes('everything__echo'), names.join(', '));
      assert.ok(!names.some((n) => n.startsWith('errors__')), names.join(', '));
      await warned;
      assert.match(stderr, /--exclude no-such-server: no such server in the config \(servers: .*everything/);
      assert.doesNotMatch(stderr, /--exclude errors/);
      // A call by an excluded server's would-be tool name is refused like any unknown tool.
      await assert.rejects(other.callTool({ name: 'errors__fail', arguments: {} }), /unknown tool "errors__fail"/);
    } finally {
      await other.close();
    }
  });

  test('a bare --exclude is a usage error (exit 2) and serve does not start', async () => {
    const r = await h.run(['serve', '--exclude'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--exclude needs a value/);
    const r2 = await h.run(['list', '--exclude', 'x'], { cwd: ws });
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /list does not take --exclude/);
  });
});

describe('mcp-host serve in a folder nobody approved', { timeout: 120_000 }, () => {
  test('without --allow-project-servers the folder’s servers are not started, and stderr says why', async () => {
    const other = new Client({ name: 'serve-held-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [h.cli, 'serve'],
      cwd: ws,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: h.dir,
        MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
        MCP_HOST_BLOB_DIR: join(h.dir, 'blobs-held'),
        ...gatewayPathEnv(),
      },
      stderr: 'pipe',
    });
    let stderr = '';
    const warned = new Promise<void>((resolve) => {
      transport.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('--allow-project-servers')) resolve();
      });
    });
    try {
      await other.connect(transport);
      const names = (await other.listTools()).tools.map((t) => t.name);
      assert.deepEqual(
        names.filter((n) => n.startsWith('everything__') || n.startsWith('errors__')),
        [],
      );
      await warned;
      assert.match(stderr, /not starting everything, errors.* from .*\.mcp\.json/);
    } finally {
      await other.close();
    }
  });
});
