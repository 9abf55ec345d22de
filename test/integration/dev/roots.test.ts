// Roots per server (the Inspector's roots feature): the host asks the RootsPort with the server's
// name, so one server can be offered folders the others do not see, and a change reaches every
// server as roots/list_changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { Emitter } from '../../../src/core/events.js';
import { createHost } from '../../../src/core/host.js';
import { MemoryLogger, def, tempDir, textOf } from '../connection/helpers.js';

test('each server lists its own extra roots besides the workspace folders; adding one notifies the servers', async () => {
  const changed = new Emitter<void>();
  const workspace = [{ uri: 'file:///work/project', name: 'project' }];
  const extra: Record<string, { uri: string; name: string }[]> = {};
  const heard: string[] = [];
  const waiters: (() => void)[] = [];
  const host = createHost({
    logger: new MemoryLogger(),
    blobDir: tempDir('roots-blobs'),
    env: {},
    roots: { roots: (server) => [...workspace, ...(server ? (extra[server] ?? []) : [])], onDidChange: changed.event },
  });
  const server = (name: string) =>
    def(name, {
      type: 'inprocess',
      id: name,
      async start(transport: Transport) {
        const s = new McpServer({ name, version: '1.0.0' });
        s.server.setNotificationHandler('notifications/roots/list_changed', async () => {
          heard.push(name);
          waiters.shift()?.();
        });
        s.registerTool('roots', {}, async () => ({
          content: [{ type: 'text', text: JSON.stringify((await s.server.listRoots()).roots.map((r) => r.uri)) }],
        }));
        await s.connect(transport);
      },
    });
  try {
    host.setDefinitions([server('a'), server('b')]);
    await host.whenSettled();
    const rootsOf = async (n: string) => JSON.parse(textOf(await host.callTool(n, 'roots', {}))) as string[];
    assert.deepEqual(await rootsOf('a'), ['file:///work/project']);
    extra.a = [{ uri: 'file:///tmp/fixtures', name: 'fixtures' }];
    const both = Promise.all([new Promise<void>((r) => waiters.push(r)), new Promise<void>((r) => waiters.push(r))]);
    changed.fire();
    await both;
    assert.deepEqual(heard.sort(), ['a', 'b']);
    assert.deepEqual(await rootsOf('a'), ['file:///work/project', 'file:///tmp/fixtures']);
    assert.deepEqual(await rootsOf('b'), ['file:///work/project']);
  } finally {
    await host.dispose();
  }
});
