// `mcp-host serve` with tool search mode, a profile and a result limit, chosen on its command line
// and defined in the user settings.json the editor would use; the SDK's Client as the agent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { EVERYTHING, createHarness, type Harness } from '../cli/harness.js';
import { text, untilSearchable, untilTools, gatewayPathEnv } from './helpers.js';

let h: Harness;
let ws: string;
let settings: string;
const clients: Client[] = [];

function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: h.dir,
    MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
    MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
    ...gatewayPathEnv(),
  };
}

async function serve(...args: string[]): Promise<Client> {
  const client = new Client({ name: 'serve-views-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    // The folder's own servers: serve starts them only when told to (an agent may launch it anywhere).
    args: [h.cli, 'serve', '--allow-project-servers', '--user-settings', settings, ...args],
    cwd: ws,
    env: env(),
    stderr: 'pipe',
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

before(async () => {
  h = await createHarness();
  ws = await h.workspace('serve-views', {
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    errors: { command: process.execPath, args: [h.fixture('errors-server')] },
  });
  settings = join(h.dir, 'settings.json');
  await writeFile(
    settings,
    JSON.stringify({
      'mcpHost.gateway.profiles': { ro: { readOnly: true }, errs: { servers: ['errors'] } },
    }),
  );
});

after(async () => {
  for (const c of clients) await c.close();
  await h?.dispose();
});

describe('mcp-host serve: search mode, profiles, result limits', { timeout: 180_000 }, () => {
  test('--tools search: the agent finds and calls a tool it was never listed; a long result comes cut and reads back', async () => {
    const client = await serve('--tools', 'search', '--max-result-tokens', '50');
    await untilSearchable(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names.sort(), ['call_tool', 'get_tool_schema', 'search_tools']);
    const found = JSON.parse(
      text(await client.callTool({ name: 'search_tools', arguments: { query: 'add two numbers' } })),
    ) as { tools: { name: string }[] };
    assert.ok(
      found.tools.slice(0, 3).some((t) => t.name === 'everything__get-sum'),
      JSON.stringify(found),
    );
    const sum = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'everything__get-sum', arguments: { a: 2, b: 3 } },
    });
    assert.match(text(sum), /5/);

    const long = 'abcdefghij'.repeat(100);
    const r = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'everything__echo', arguments: { message: long } },
    });
    const got = text(r);
    assert.ok(!got.includes(long), 'the whole text did not reach the agent');
    const uri = /(mcp-host-result:\/\/[0-9a-f-]+)\?page=1/.exec(got)?.[1];
    assert.ok(uri, got);
    const pages = Number(/\?page=(\d+) with resources\/read/.exec(got)?.[1]);
    let whole = '';
    for (let p = 1; p <= pages; p++)
      whole += ((await client.readResource({ uri: `${uri}?page=${p}` })).contents[0] as { text: string }).text;
    assert.ok(whole.includes(long), whole.slice(0, 200));
  });

  test('--profile ro --tools all: only the read-only tools, listed in full', async () => {
    const client = await serve('--profile', 'ro', '--tools', 'all');
    await untilTools(client, (n) => n.includes('everything__get-sum'), 'the read-only tools of everything');
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'everything__get-sum'));
    assert.ok(
      tools.length > 0 && tools.every((t) => t.annotations?.readOnlyHint === true),
      tools.map((t) => t.name).join(),
    );
    const errs = await serve('--profile', 'errs');
    const errNames = await untilTools(errs, (n) => n.length > 0, 'the tools of the errs profile');
    assert.ok(
      errNames.every((n) => n.startsWith('errors__')),
      errNames.join(),
    );
  });

  test('--profile with an unknown name is a usage error naming the profiles there are', () => {
    const r = spawnSync(
      process.execPath,
      [h.cli, 'serve', '--allow-project-servers', '--user-settings', settings, '--profile', 'nope'],
      {
        cwd: ws,
        env: env(),
        input: '',
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--profile nope: no such profile/);
    assert.match(r.stderr, /ro, errs/);
  });
});
