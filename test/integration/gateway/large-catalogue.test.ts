// The gateway in front of a large catalogue: 324 real tool definitions (19 real npm servers'
// captured tool lists, served in process), a stdio fixture, and SDK clients over HTTP as agents.
// Tool search mode, the full list on request, profiles, result limits and the sign-in tool.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { GatewayViews, type GatewayProfile, type ToolSearchOptions } from '../../../src/core/gateway/index.js';
import { def, startPortServer, stdioDef, type RunningServer } from '../connection/helpers.js';
import { agent, closeAgent, rawPost, startRig, text, type Rig } from './helpers.js';
import { catalogueDefs, catalogueServers } from './catalogue.js';

const TOTAL = catalogueServers().reduce((n, s) => n + s.tools.length, 0);
const search: ToolSearchOptions = { alwaysList: ['thinking', 'alpha__echo'] };
const profiles: Record<string, GatewayProfile> = {
  readonly: { readOnly: true, toolSearch: 'off' },
  k8s: { servers: ['kubernetes'] },
  hidden: { servers: ['secret', 'kubernetes'] },
  prs: { tools: ['github__*pull_request*'] },
};
const BIG = 'x'.repeat(50) + 'y'.repeat(300_000);

let rig: Rig;
let ws: RunningServer;
let signIns = 0;
const agents: Client[] = [];
async function connect(...a: Parameters<typeof agent> extends [unknown, ...infer R] ? R : never): Promise<Client> {
  const c = await agent(rig, ...a);
  agents.push(c);
  return c;
}
/** The agent's next tools/list_changed; rejects at the deadline. Call before the change. */
function nextToolsChanged(client: Client, ms = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no tools/list_changed within ${ms} ms`)), ms);
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
function json(r: unknown): { tools: { name: string; server: string; inputSchema: object }[] } {
  return JSON.parse(text(r)) as never;
}

before(async () => {
  ws = await startPortServer('ws-server.mjs', ['--require-header', 'x-api-key:secret']);
  const wsUrl = ws.url.replace('http:', 'ws:');
  const locked = def('locked', { type: 'ws', url: wsUrl });
  rig = await startRig(
    [
      ...catalogueDefs(),
      stdioDef('alpha'),
      // Never exposed (as if the exclude list or the policy kept it out): no profile reaches it.
      stdioDef('secret'),
      locked,
    ],
    {
      isServerExposed: (s) => s !== 'secret',
      views: new GatewayViews({ toolSearch: () => search, profiles: () => profiles }),
      resultLimit: () => ({ maxTokens: 25_000 }),
      signIn: {
        // The editor's sign-in, standing in: it provides the credential and has the server reconnect.
        start: () => {
          signIns++;
          rig.host.setDefinitions([
            ...rig.host
              .servers()
              .filter((s) => s.name !== 'locked')
              .map((s) => s.definition),
            def('locked', { type: 'ws', url: wsUrl, headers: { 'x-api-key': 'secret' } }),
          ]);
          return Promise.resolve({ done: Promise.resolve() });
        },
      },
    },
  );
});

// The rig allows 4 sessions at once: each test's agents leave when it ends.
afterEach(async () => {
  for (const c of agents.splice(0)) await closeAgent(c);
});

after(async () => {
  await rig?.dispose();
  await ws?.stop();
});

describe('gateway with a large catalogue', { timeout: 120_000 }, () => {
  test('past the threshold an agent is listed the search tools, finds a tool it was never listed and calls it', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['search_tools', 'get_tool_schema', 'call_tool', 'thinking__sequentialthinking', 'alpha__echo'])
      assert.ok(names.includes(n), `${n} missing from ${names.join(', ')}`);
    assert.ok(!names.includes('kubernetes__kubectl_scale'));
    assert.ok(names.length < 10, names.join(', '));
    assert.match(
      String(tools.find((t) => t.name === 'search_tools')?.description),
      new RegExp(`${TOTAL + rig.host.server('alpha')!.tools.length} tools are available`),
    );

    const found = json(
      await client.callTool({ name: 'search_tools', arguments: { query: 'scale a deployment to 3 replicas' } }),
    );
    const hit = found.tools.slice(0, 3).find((t) => t.name === 'kubernetes__kubectl_scale');
    assert.ok(hit, JSON.stringify(found.tools.map((t) => t.name)));
    assert.deepEqual((hit.inputSchema as { required: string[] }).required, ['name', 'replicas']);
    const only = json(
      await client.callTool({ name: 'search_tools', arguments: { query: 'screenshot', server: 'devtools' } }),
    );
    assert.ok(only.tools.length > 0 && only.tools.every((t) => t.server === 'devtools'));

    const schema = await client.callTool({ name: 'get_tool_schema', arguments: { name: 'kubernetes__kubectl_scale' } });
    assert.match(text(schema), /Number of replicas/);
    const r = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'kubernetes__kubectl_scale', arguments: { name: 'web', replicas: 3 } },
    });
    assert.equal(text(r), 'called kubernetes/kubectl_scale {"name":"web","replicas":3}');
    // Called by its own name too: a client that remembers a tool from an earlier search.
    const direct = await client.callTool({
      name: 'github__get_issue',
      arguments: { owner: 'o', repo: 'r', issue_number: 1 },
    });
    assert.match(text(direct), /^called github\/get_issue/);
    const bad = await client.callTool({ name: 'call_tool', arguments: { name: 'nope__nothing' } });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /no tool "nope__nothing"/);
  });

  test('an agent that asks for the full list (query parameter or header) gets every tool', async () => {
    for (const c of [await connect({}, '?tools=all'), await connect({}, '', { 'X-MCP-Host-Tools': 'all' })]) {
      const { tools } = await c.listTools();
      assert.equal(
        tools.filter((t) => !t.name.startsWith('alpha__')).length,
        TOTAL + 1,
        'catalogue + locked__authenticate',
      );
      assert.ok(!tools.some((t) => t.name === 'search_tools'));
    }
    assert.equal(
      await rawPost(rig.http.port, { Host: `127.0.0.1:${rig.http.port}`, Authorization: `Bearer ${rig.http.token}` }),
      200,
    );
  });

  test('profiles are endpoints of their own: read-only tools, one server, tool patterns; unknown ones are 404', async () => {
    const ro = (await (await connect({}, '/readonly')).listTools()).tools;
    assert.ok(ro.length > 100, `${ro.length}`);
    assert.ok(
      ro.every((t) => t.annotations?.readOnlyHint === true),
      'only read-only tools',
    );
    const k8s = (await (await connect({}, '/k8s')).listTools()).tools;
    assert.ok(k8s.length === 23 && k8s.every((t) => t.name.startsWith('kubernetes__')), k8s.map((t) => t.name).join());
    // A profile cannot name its way to a server the gateway does not expose.
    const hidden = (await (await connect({}, '/hidden')).listTools()).tools;
    assert.ok(
      hidden.every((t) => t.name.startsWith('kubernetes__')),
      hidden.map((t) => t.name).join(),
    );
    const prs = (await (await connect({}, '/prs')).listTools()).tools.map((t) => t.name);
    assert.ok(
      prs.includes('github__merge_pull_request') && prs.every((n) => /^github__.*pull_request/.test(n)),
      prs.join(),
    );
    const none = await fetch(`${rig.http.url}/nope`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${rig.http.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    assert.equal(none.status, 404);
    assert.equal(((await none.json()) as { error: { message: string } }).error.message, 'no gateway profile "nope"');
  });

  test('a result past the limit arrives cut with a note; the whole of it reads back in pages', async () => {
    const client = await connect();
    const r = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'alpha__echo', arguments: { text: BIG } },
    });
    const got = text(r);
    assert.ok(got.length < 110_000, `${got.length} characters reached the agent`);
    const uri = /(mcp-host-result:\/\/[0-9a-f-]+)\?page=1/.exec(got)?.[1];
    assert.ok(uri, got.slice(-400));
    const pages = Number(/\?page=(\d+) with resources\/read/.exec(got)?.[1]);
    let whole = '';
    for (let p = 1; p <= pages; p++) {
      const page = await client.readResource({ uri: `${uri}?page=${p}` });
      whole += (page.contents[0] as { text: string }).text;
    }
    assert.equal(whole, `echo: ${BIG}`);
  });

  test('a server that needs sign-in is one tool; calling it signs in, and its tools replace it in one list_changed', async () => {
    const client = await connect({}, '?tools=all');
    const before = (await client.listTools()).tools.map((t) => t.name);
    const changed = nextToolsChanged(client);
    let changes = 0;
    changed.then(
      () => client.setNotificationHandler('notifications/tools/list_changed', () => void changes++),
      () => {},
    );
    assert.ok(before.includes('locked__authenticate'));
    assert.ok(!before.includes('locked__headers'));
    const r = await client.callTool({ name: 'locked__authenticate', arguments: {} });
    assert.match(text(r), /Signed in to locked; it is connected/);
    assert.equal(signIns, 1);
    await changed;
    const after = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(after.includes('locked__headers') && !after.includes('locked__authenticate'), after.join());
    // The stand-in stays while the server connects: no list without both in between, so no second change.
    assert.equal(changes, 0, 'a second tools/list_changed: the list was empty of the server while it connected');
  });

  test('list_changed in search mode: a new server’s tools are found by search', async () => {
    const client = await connect();
    await client.listTools();
    const changed = nextToolsChanged(client);
    rig.host.setDefinitions([...rig.host.servers().map((s) => s.definition), stdioDef('gamma')]);
    await changed;
    const found = json(await client.callTool({ name: 'search_tools', arguments: { query: 'echo', server: 'gamma' } }));
    assert.ok(
      found.tools.some((t) => t.name === 'gamma__echo'),
      JSON.stringify(found),
    );
  });
});
