import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/server';
import { wrapPrompts, wrapResourceTemplates, wrapResources, wrapTools } from '../../../src/core/capabilities/index.js';
import { TRUNCATION_MARKER } from '../../../src/core/capabilities/sanitize.js';

const schema = { type: 'object' as const, properties: { n: { type: 'integer' } } };

test('wrapTools gives qualified names, keeps the wire name, schema and annotations', () => {
  const tools: Tool[] = [
    {
      name: 'get.thing',
      title: 'Get thing',
      description: 'Gets a thing',
      inputSchema: schema,
      outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true, idempotentHint: true },
    },
  ];
  const [t] = wrapTools('my server', tools, new Set());
  assert.equal(t!.server, 'my server');
  assert.equal(t!.name, 'get.thing');
  assert.equal(t!.qualifiedName, 'mcp__my_server__get_thing');
  assert.equal(t!.title, 'Get thing');
  assert.equal(t!.description, 'Gets a thing');
  assert.deepEqual(t!.inputSchema, schema);
  assert.deepEqual(t!.outputSchema, { type: 'object', properties: { ok: { type: 'boolean' } } });
  assert.deepEqual(t!.annotations, {
    readOnlyHint: true,
    destructiveHint: false,
    openWorldHint: true,
    idempotentHint: true,
  });
});

test('wrapTools strips bidi and zero-width characters from titles, descriptions and schemas, and cuts at 2,048', () => {
  const tools: Tool[] = [
    {
      name: 'a\u202Eb',
      title: 'T\u200Bitle',
      description: 'Harmless\u2066 tool' + 'x'.repeat(50 * 1024),
      inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'hidden\u{E0041}\u{E0042}' } } },
    },
  ];
  const [t] = wrapTools('s', tools, new Set());
  assert.equal(t!.name, 'a\u202Eb', 'the wire name is not changed');
  assert.match(t!.qualifiedName, /^[A-Za-z0-9_-]+$/);
  assert.equal(t!.title, 'Title');
  assert.ok(t!.description.startsWith('Harmless tool'));
  assert.ok(t!.description.endsWith(TRUNCATION_MARKER));
  assert.equal(t!.description.length, 2048 + TRUNCATION_MARKER.length);
  assert.deepEqual(t!.inputSchema, { type: 'object', properties: { q: { type: 'string', description: 'hidden' } } });
});

test('wrapTools keeps one object per distinct schema of a list, sanitised, and never merges different ones', () => {
  const same = () => ({ type: 'object' as const, properties: { q: { type: 'string', description: 'query\u202E' } } });
  const tools: Tool[] = [
    { name: 'a', inputSchema: same() },
    { name: 'b', inputSchema: same() },
    { name: 'c', inputSchema: { type: 'object', properties: { q: { type: 'number' } } } },
    { name: 'd', inputSchema: same(), outputSchema: same() },
  ];
  const [a, b, c, d] = wrapTools('s', tools, new Set());
  assert.equal(a.inputSchema, b.inputSchema);
  assert.equal(a.inputSchema, d.inputSchema);
  assert.equal(d.outputSchema, a.inputSchema);
  assert.notEqual(c.inputSchema, a.inputSchema);
  assert.deepEqual(a.inputSchema, { type: 'object', properties: { q: { type: 'string', description: 'query' } } });
  assert.deepEqual(c.inputSchema, { type: 'object', properties: { q: { type: 'number' } } });
  // Another list (another server, or a refresh) gets its own objects.
  const [again] = wrapTools('t', [{ name: 'a', inputSchema: same() }], new Set());
  assert.notEqual(again.inputSchema, a.inputSchema);
});

test('wrapTools keeps qualified names unique within the list and against names already taken', () => {
  const long = 'z'.repeat(70);
  const tools: Tool[] = [
    { name: 'a.b', inputSchema: { type: 'object' } },
    { name: 'a_b', inputSchema: { type: 'object' } },
    { name: `${long}1`, inputSchema: { type: 'object' } },
    { name: `${long}2`, inputSchema: { type: 'object' } },
    { name: 'taken', inputSchema: { type: 'object' } },
    { name: '', inputSchema: { type: 'object' } },
  ];
  const taken = new Set(['mcp__s__taken']);
  const wrapped = wrapTools('s', tools, taken);
  assert.equal(wrapped.length, 5, 'a tool with an empty name is dropped');
  const names = wrapped.map((t) => t.qualifiedName);
  assert.equal(new Set(names).size, names.length);
  assert.ok(!names.includes('mcp__s__taken'));
  for (const n of names) assert.ok(n.length <= 64 && /^[A-Za-z0-9_-]+$/.test(n), n);
  assert.deepEqual(taken, new Set(['mcp__s__taken']), 'taken is not modified');
  assert.deepEqual(
    wrapTools('s', tools, taken).map((t) => t.qualifiedName),
    names,
    'deterministic',
  );
});

test('wrapTools drops non-boolean hints and defaults a missing description to empty', () => {
  const tools = [
    { name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'false', destructiveHint: true } },
  ] as unknown as Tool[];
  const [t] = wrapTools('s', tools, new Set());
  assert.deepEqual(t!.annotations, { destructiveHint: true });
  assert.equal(t!.description, '');
});

test('resources, templates and prompts are sanitised, wire identifiers kept', () => {
  const [r] = wrapResources('s', [
    { uri: 'file:///a\u200B.txt', name: 'a\u202E', description: 'd\u200B', mimeType: 'text/plain' },
  ]);
  assert.deepEqual(r, { server: 's', uri: 'file:///a\u200B.txt', name: 'a', description: 'd', mimeType: 'text/plain' });
  const [tpl] = wrapResourceTemplates('s', [{ uriTemplate: 'x://{id}', name: 'n\uFEFF', title: 'T' }]);
  assert.deepEqual(tpl, { server: 's', uriTemplate: 'x://{id}', name: 'n', title: 'T' });
  const [p] = wrapPrompts('s', [
    {
      name: 'greet',
      description: 'Say hi\u2067',
      arguments: [{ name: 'who', description: 'w\u200B', required: true }, { name: 'opt' }],
    },
  ]);
  assert.deepEqual(p, {
    server: 's',
    name: 'greet',
    description: 'Say hi',
    arguments: [{ name: 'who', description: 'w', required: true }, { name: 'opt' }],
  });
});

test('the unicode-tools fixture list comes out clean: valid unique names, no hidden text, bounded descriptions', async () => {
  const { UNICODE_TOOLS } = await import('../../fixtures/servers/unicode-tools.js');
  const wrapped = wrapTools('unicode', UNICODE_TOOLS, new Set());
  assert.equal(wrapped.length, UNICODE_TOOLS.length);
  assert.equal(new Set(wrapped.map((t) => t.qualifiedName)).size, wrapped.length);
  const invisible = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;
  for (const t of wrapped) {
    assert.match(t.qualifiedName, /^[A-Za-z0-9_-]{1,64}$/);
    assert.ok(!invisible.test(t.description), t.name);
    assert.ok(!invisible.test(JSON.stringify(t.inputSchema)), t.name);
    assert.ok(t.description.length <= 2048 + TRUNCATION_MARKER.length);
  }
  const echo = wrapped.find((t) => t.name === 'ec\u200Bho')!;
  assert.equal(echo.description, 'Echoes its input.');
  assert.ok(!echo.description.includes('ssh'));
});

test('wrapTools keeps the upstream a gateway names in _meta, sanitised; garbage names none', () => {
  const tools: Tool[] = [
    {
      name: 'alpha__echo',
      inputSchema: schema,
      _meta: { 'mcp-host/upstream': { server: 'al\u202Epha\nx', tool: 'echo' } },
    },
    { name: 'beta__echo', inputSchema: schema, _meta: { 'mcp-host/upstream': { server: 7, tool: 'echo' } } },
    { name: 'plain', inputSchema: schema, _meta: { 'mcp-host/upstream': 'alpha' } },
  ];
  const [a, b, c] = wrapTools('acme', tools, new Set());
  assert.deepEqual(a!.upstream, { server: 'alpha x', tool: 'echo' });
  assert.equal(b!.upstream, undefined);
  assert.equal(c!.upstream, undefined);
});
