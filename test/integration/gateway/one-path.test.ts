// List changes and resource updates reach agents of both eras by one path (Gateway.watchLists,
// features.ts watchResource): each agent hears each change exactly once, and only a change of what
// its own view lists. Counting "exactly once" without sleeping: after the change under test, an
// update of another resource (the fence) is sent and awaited; it travels on the same stream as the
// change's notifications (a session's event stream, a listen stream), after them, so a double or a
// notification that should not have been sent has arrived by then.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { GatewayViews } from '../../../src/core/gateway/index.js';
import type { ToolSearchOptions } from '../../../src/core/gateway/tool-search.js';
import { def, stdioDef, waitFor } from '../connection/helpers.js';
import { agent, closeAgent, startRig, type Rig } from './helpers.js';
import { withDeadline } from '../../support/wait.js';

/** An in-process server with subscribable resources and a tool that reports one of them updated. */
function publisherDef(name: string): ServerDefinition {
  return def(name, {
    type: 'inprocess',
    id: name,
    start: async (transport: Transport) => {
      const server = new McpServer({ name, version: '1.0.0' });
      for (const r of ['a', 'fence'])
        server.registerResource(r, `pub://${r}`, { mimeType: 'text/plain' }, () => ({
          contents: [{ uri: `pub://${r}`, text: r }],
        }));
      server.server.registerCapabilities({ resources: { subscribe: true } });
      server.server.setRequestHandler('resources/subscribe', () => ({}));
      server.server.setRequestHandler('resources/unsubscribe', () => ({}));
      server.registerTool('touch', { inputSchema: z.object({ uri: z.string() }) }, async ({ uri }) => {
        await server.server.sendResourceUpdated({ uri });
        return { content: [{ type: 'text', text: 'touched' }] };
      });
      await server.connect(transport);
    },
  });
}

/** What one agent heard. */
interface Heard {
  toolsChanged: number;
  updates: Map<string, number>;
  /** Checks run on each notification, resolving waits. */
  checks: Set<() => void>;
}

function hear(client: Client): Heard {
  const h: Heard = { toolsChanged: 0, updates: new Map(), checks: new Set() };
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    h.toolsChanged++;
    for (const c of h.checks) c();
  });
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    h.updates.set(n.params.uri, (h.updates.get(n.params.uri) ?? 0) + 1);
    for (const c of h.checks) c();
  });
  return h;
}

/** Resolves once `ok(h)` holds (now or after a later notification); rejects at the deadline. */
function until(h: Heard, what: string, ok: (h: Heard) => boolean): Promise<void> {
  let check: () => void = () => {};
  return withDeadline(
    new Promise<void>((resolve) => {
      check = () => {
        if (ok(h)) resolve();
      };
      h.checks.add(check);
      check();
    }),
    what,
  ).finally(() => h.checks.delete(check));
}

async function modernAgent(rig: Rig, endpoint = ''): Promise<Client> {
  const client = new Client(
    { name: `modern${endpoint.replace(/\W/g, '-')}`, version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(rig.http.url + endpoint), {
      requestInit: { headers: { Authorization: `Bearer ${rig.http.token}` } },
    }),
  );
  return client;
}

let search: ToolSearchOptions = { mode: 'off' };
let rig: Rig;
const legacy: Record<'all' | 'profile', Client> = {} as never;
const modern: Record<'all' | 'profile', Client> = {} as never;
const heard = new Map<string, Heard>();
const listens: { close(): Promise<void> }[] = [];
let uriA = '';
let uriFence = '';

function each(): [string, Client, Heard][] {
  return [
    ['legacy', legacy.all, heard.get('legacy')!],
    ['modern', modern.all, heard.get('modern')!],
    ['legacy on the profile', legacy.profile, heard.get('legacy on the profile')!],
    ['modern on the profile', modern.profile, heard.get('modern on the profile')!],
  ];
}

before(async () => {
  rig = await startRig([stdioDef('one'), stdioDef('two'), publisherDef('pub')], {
    views: new GatewayViews({
      toolSearch: () => search,
      profiles: () => ({ mine: { servers: ['one', 'pub'] } }),
    }),
  });
  legacy.all = await agent(rig);
  legacy.profile = await agent(rig, {}, '/mine');
  modern.all = await modernAgent(rig);
  modern.profile = await modernAgent(rig, '/mine');
  heard.set('legacy', hear(legacy.all));
  heard.set('modern', hear(modern.all));
  heard.set('legacy on the profile', hear(legacy.profile));
  heard.set('modern on the profile', hear(modern.profile));
  const find = (uri: string): string =>
    rig.gateway.current().resources.find((r) => r.resource.server === 'pub' && r.resource.uri === uri)!.uri;
  uriA = find('pub://a');
  uriFence = find('pub://fence');
  for (const c of [legacy.all, legacy.profile]) {
    await c.subscribeResource({ uri: uriA });
    await c.subscribeResource({ uri: uriFence });
  }
  for (const c of [modern.all, modern.profile])
    listens.push(await c.listen({ toolsListChanged: true, resourceSubscriptions: [uriA, uriFence] }));
});

/** Sends an update of the fence resource and waits until every agent has heard it. */
async function fence(): Promise<void> {
  const seen = new Map(each().map(([who, , h]) => [who, h.updates.get(uriFence) ?? 0]));
  await legacy.all.callTool({ name: 'pub__touch', arguments: { uri: 'pub://fence' } });
  for (const [who, , h] of each())
    await until(h, `${who}: the fence`, (x) => (x.updates.get(uriFence) ?? 0) > seen.get(who)!);
}

after(async () => {
  for (const l of listens) await l.close().catch(() => undefined);
  for (const c of [modern.all, modern.profile]) await c?.close();
  for (const c of [legacy.all, legacy.profile]) if (c) await closeAgent(c);
  await rig?.dispose();
});

describe('one change-notification path, both eras', { timeout: 120_000 }, () => {
  test('switching tool search on reaches agents of both eras: their tool list is now the search tools', async () => {
    const start = new Map(each().map(([who, , h]) => [who, h.toolsChanged]));
    search = { mode: 'on' };
    try {
      rig.gateway.refresh();
      for (const [who, client, h] of each()) {
        await until(h, `${who}: list_changed for search mode`, (x) => x.toolsChanged > start.get(who)!);
        const names = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes('search_tools'), `${who}: ${names.join(', ')}`);
      }
      await fence();
      for (const [who, , h] of each()) assert.equal(h.toolsChanged - start.get(who)!, 1, who);
      // And back to the full list: once more each.
      search = { mode: 'off' };
      rig.gateway.refresh();
      for (const [who, , h] of each())
        await until(h, `${who}: list_changed back`, (x) => x.toolsChanged >= start.get(who)! + 2);
      await fence();
      for (const [who, , h] of each()) assert.equal(h.toolsChanged - start.get(who)!, 2, who);
    } finally {
      search = { mode: 'off' };
      rig.gateway.refresh();
    }
  });

  test('a list_changed reaches each agent whose list changed exactly once, and no other agent', async () => {
    const start = new Map(each().map(([who, , h]) => [who, h.toolsChanged]));
    const count = (who: string, h: Heard): number => h.toolsChanged - start.get(who)!;
    try {
      // Outside the profile: only the agents of the whole gateway are told.
      await rig.host.stop('two');
      for (const [who, , h] of each().slice(0, 2)) await until(h, `${who}: list_changed`, (x) => count(who, x) >= 1);
      await fence();
      for (const [who, , h] of each()) {
        const want = who.endsWith('profile') ? 0 : 1;
        assert.equal(count(who, h), want, `${who} heard ${count(who, h)} list_changed, expected ${want}`);
      }
      // Inside it: every agent, once.
      await rig.host.stop('one');
      for (const [who, , h] of each().slice(2)) await until(h, `${who}: list_changed`, (x) => count(who, x) >= 1);
      await fence();
      for (const [who, , h] of each()) {
        const want = who.endsWith('profile') ? 1 : 2;
        assert.equal(count(who, h), want, `${who} heard ${count(who, h)} list_changed, expected ${want}`);
      }
    } finally {
      await rig.host.start('one');
      await rig.host.start('two');
      await waitFor(rig.host, 'one', (s) => s.state.kind === 'connected');
      await waitFor(rig.host, 'two', (s) => s.state.kind === 'connected');
    }
  });

  test('a resource update reaches each subscribed agent exactly once, under its own URI', async () => {
    const base = new Map(each().map(([who, , h]) => [who, h.updates.get(uriA) ?? 0]));
    await legacy.all.callTool({ name: 'pub__touch', arguments: { uri: 'pub://a' } });
    for (const [who, , h] of each())
      await until(h, `${who}: update of ${uriA}`, (x) => (x.updates.get(uriA) ?? 0) > base.get(who)!);
    await fence();
    for (const [who, , h] of each()) {
      assert.equal((h.updates.get(uriA) ?? 0) - base.get(who)!, 1, `${who}: updates of ${uriA}`);
      assert.deepEqual(
        [...h.updates.keys()].filter((u) => u !== uriA && u !== uriFence),
        [],
        `${who} heard an update under another URI`,
      );
    }
  });
});
