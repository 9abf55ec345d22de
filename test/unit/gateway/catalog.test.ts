import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snap } from './snapshots.js';
import { buildCatalog, resolveResourceUri, unwrapUri, wrapUri } from '../../../src/core/gateway/catalog.js';

test('tools and prompts are <server>__<name>, valid, unique and at most 64 characters', () => {
  const c = buildCatalog([
    snap('git hub', { tools: ['create.issue', 'x'.repeat(80)], prompts: ['p'] }),
    snap('git_hub', { tools: ['create_issue'], prompts: ['p'] }),
  ]);
  const names = c.tools.map((t) => t.name);
  assert.equal(names[0], 'git_hub__create_issue');
  assert.equal(new Set(names).size, 3);
  for (const n of names) assert.match(n, /^[A-Za-z0-9_-]{1,64}$/);
  assert.deepEqual(
    c.tools.map((t) => [t.tool.server, t.tool.name]),
    [
      ['git hub', 'create.issue'],
      ['git hub', 'x'.repeat(80)],
      ['git_hub', 'create_issue'],
    ],
  );
  assert.equal(c.prompts.length, 2);
  assert.notEqual(c.prompts[0]!.name, c.prompts[1]!.name);
  // Same inputs, same names.
  assert.deepEqual(
    buildCatalog([
      snap('git hub', { tools: ['create.issue', 'x'.repeat(80)], prompts: ['p'] }),
      snap('git_hub', { tools: ['create_issue'], prompts: ['p'] }),
    ]).tools.map((t) => t.name),
    names,
  );
});

test('only connected, exposed servers and enabled tools are shown', () => {
  const c = buildCatalog(
    [snap('a', { tools: ['t1', 't2'] }), snap('b', { tools: ['t'] }), snap('down', { tools: ['t'], state: 'failed' })],
    {
      isServerExposed: (s) => s !== 'b',
      isToolEnabled: (s, t) => !(s === 'a' && t === 't2'),
    },
  );
  assert.deepEqual(
    c.tools.map((t) => t.name),
    ['a__t1'],
  );
  assert.deepEqual(c.servers, ['a']);
});

test('resource URIs stay as they are unless two servers share one; then both are wrapped, reversibly', () => {
  const c = buildCatalog([
    snap('one', { uris: ['file:///a', 'mem://x'], templates: ['db://{table}'] }),
    snap('two', { uris: ['file:///a'], templates: ['db://{table}', 'two://{id}'] }),
  ]);
  assert.deepEqual(
    c.resources.map((r) => r.uri),
    ['mcp-host://one/file:///a', 'mem://x', 'mcp-host://two/file:///a'],
  );
  assert.deepEqual(
    c.templates.map((t) => t.uriTemplate),
    ['mcp-host://one/db://{table}', 'mcp-host://two/db://{table}', 'two://{id}'],
  );
  assert.deepEqual(resolveResourceUri(c, 'mcp-host://two/file:///a'), { server: 'two', uri: 'file:///a' });
  assert.deepEqual(resolveResourceUri(c, 'mem://x'), { server: 'one', uri: 'mem://x' });
  assert.deepEqual(resolveResourceUri(c, 'two://42'), { server: 'two', uri: 'two://42' });
  assert.deepEqual(resolveResourceUri(c, 'mcp-host://one/db://users'), { server: 'one', uri: 'db://users' });
  assert.equal(resolveResourceUri(c, 'unknown://z'), undefined);
});

test('wrapping survives server names with slashes and odd characters', () => {
  for (const server of ['a/b', 'x y', 'ü', '%41']) {
    assert.deepEqual(unwrapUri(wrapUri(server, 'file:///p?q=1')), { server, uri: 'file:///p?q=1' });
  }
  assert.equal(unwrapUri('file:///a'), undefined);
});

test('app-only tools (MCP Apps visibility ["app"]) are not offered to agents', () => {
  const s = snap('a', { tools: ['shown', 'appOnly', 'both'] });
  s.tools[1] = { ...s.tools[1]!, ui: { resourceUri: 'ui://a/app.html', visibility: ['app'] } };
  s.tools[2] = { ...s.tools[2]!, ui: { resourceUri: 'ui://a/app.html', visibility: ['model', 'app'] } };
  assert.deepEqual(
    buildCatalog([s]).tools.map((t) => t.name),
    ['a__shown', 'a__both'],
  );
});

test('a server waiting for its first use (startServers: onFirstUse) offers its cached tools; a stopped one does not', () => {
  const waiting = {
    ...snap('lazy', { tools: ['t'] }),
    state: { kind: 'disabled', reason: 'on-first-use', message: 'starts on first use' } as const,
    cached: true,
  };
  const stopped = { ...snap('off', { tools: ['t'] }), state: { kind: 'disabled', reason: 'user' } as const };
  const c = buildCatalog([waiting, stopped]);
  assert.deepEqual(
    c.tools.map((t) => t.tool.server),
    ['lazy'],
  );
});
