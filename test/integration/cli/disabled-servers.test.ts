// A server the user disabled in the editor (the per-workspace file both front ends read) stays
// stopped under `mcp-host` commands and under `mcp-host serve`; the other servers run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { disabledServersFor } from '../../../src/core/tools/index.js';
import { EVERYTHING, createHarness, type Harness } from './harness.js';

let h: Harness;
let ws: string;

before(async () => {
  h = await createHarness();
  ws = await h.workspace('disabled', {
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    errors: { command: process.execPath, args: [h.fixture('errors-server')] },
  });
  // What the editor's Disable does: HOME is the harness folder, so its config dir is HOME/.config/mcp-host.
  await disabledServersFor(ws, { MCP_HOST_CONFIG_DIR: join(h.dir, '.config', 'mcp-host') }).set('errors', true);
});

after(() => h?.dispose());

test('mcp-host commands leave a server disabled in the editor stopped, and say why', async () => {
  const list = await h.run(['list', '--json'], { cwd: ws });
  assert.equal(list.code, 0, list.stderr);
  const rows = JSON.parse(list.stdout) as { name: string; state: string; error?: string }[];
  assert.deepEqual(
    rows.map((r) => [r.name, r.state]),
    [
      ['everything', 'connected'],
      ['errors', 'disabled'],
    ],
  );
  assert.match(rows[1]!.error ?? '', /Disabled in this workspace/);

  const tools = await h.run(['tools', 'errors'], { cwd: ws });
  assert.equal(tools.code, 2, tools.stderr);
  assert.match(tools.stderr, /server "errors" is disabled/);
  assert.match(tools.stderr, /enable it there \(MCP Host: Enable Server\)/);
});

test('mcp-host serve offers the other servers and none of the disabled one', async () => {
  const client = new Client({ name: 'disabled-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      // The servers are the folder's .mcp.json: project servers start only with this flag.
      args: [h.cli, 'serve', '--allow-project-servers'],
      cwd: ws,
      env: { PATH: process.env.PATH ?? '', HOME: h.dir, MCP_HOST_BLOB_DIR: join(h.dir, 'blobs') },
      stderr: 'pipe',
    }),
  );
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(
      names.some((n) => n.startsWith('everything__')),
      names.join(', '),
    );
    assert.deepEqual(
      names.filter((n) => n.startsWith('errors__')),
      [],
    );
  } finally {
    await client.close();
  }
});
