import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerContext } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { forwardedResult, forwardingToolsCall, type ToolCall } from '../../../src/core/gateway/forward.js';

const wrap = (uri: string): string => `mcp-host://wrapped/${uri}`;

test('items go on as the server sent them, annotations and _meta included, URIs mapped on links and resources', () => {
  const text = { type: 'text', text: 'hi', annotations: { audience: ['user'] }, _meta: { k: 1 } };
  const image = { type: 'image', mimeType: 'image/png', data: 'AAAA' };
  const r = forwardedResult(
    {
      content: [
        text,
        image,
        { type: 'resource_link', uri: 'file:///a', name: 'a' },
        { type: 'resource', resource: { uri: 'file:///b', blob: 'QkJC', mimeType: 'application/octet-stream' } },
      ],
      structuredContent: { n: 1 },
      isError: true,
      _meta: { upstream: true },
    },
    wrap,
  );
  assert.ok(typeof r !== 'string');
  assert.equal(r.content[0], text, 'an item without a URI is not copied');
  assert.equal(r.content[1], image);
  assert.deepEqual(r.content[2], { type: 'resource_link', uri: wrap('file:///a'), name: 'a' });
  assert.deepEqual(r.content[3], {
    type: 'resource',
    resource: { uri: wrap('file:///b'), blob: 'QkJC', mimeType: 'application/octet-stream' },
  });
  assert.deepEqual(r.structuredContent, { n: 1 });
  assert.equal(r.isError, true);
  assert.ok(!('_meta' in r), "the result's own _meta stays with the upstream");
});

test('a 2024-10-07 `toolResult` answer becomes one text item; no content is an empty list', () => {
  assert.deepEqual(forwardedResult({ toolResult: { ok: 1 } }, wrap), {
    content: [{ type: 'text', text: '{"ok":1}' }],
  });
  assert.deepEqual(forwardedResult({}, wrap), { content: [] });
});

test('what is not a tool result is said so, not forwarded', () => {
  assert.match(String(forwardedResult({ content: 'x' }, wrap)), /no content list/);
  assert.match(String(forwardedResult({ content: [{ type: 'video', url: 'x' }] }, wrap)), /unknown kind.*video/);
  assert.match(String(forwardedResult({ content: [null] }, wrap)), /unknown kind/);
});

test('the fallback handler answers tools/call with its params checked, and nothing else', async () => {
  const seen: ToolCall[] = [];
  const handler = forwardingToolsCall((c) => {
    seen.push(c);
    return Promise.resolve({ content: [] });
  });
  const ctx = {} as ServerContext;
  const req = (method: string, params?: unknown) => ({ jsonrpc: '2.0' as const, id: 1, method, params }) as never;
  assert.deepEqual(await handler(req('tools/call', { name: 'a__b' }), ctx), { content: [] });
  await handler(req('tools/call', { name: 'a__b', arguments: { x: 1 } }), ctx);
  assert.deepEqual(seen, [
    { name: 'a__b', arguments: {} },
    { name: 'a__b', arguments: { x: 1 } },
  ]);
  const code = (c: ProtocolErrorCode) => (e: unknown) => e instanceof ProtocolError && e.code === c;
  await assert.rejects(handler(req('tools/call', { arguments: {} }), ctx), code(ProtocolErrorCode.InvalidParams));
  await assert.rejects(
    handler(req('tools/call', { name: 'x', arguments: [1] }), ctx),
    code(ProtocolErrorCode.InvalidParams),
  );
  await assert.rejects(handler(req('tools/call'), ctx), code(ProtocolErrorCode.InvalidParams));
  await assert.rejects(handler(req('sampling/whatever', {}), ctx), code(ProtocolErrorCode.MethodNotFound));
  assert.equal(seen.length, 2);
});
