import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listenedResources, SharedWatches } from '../../../src/core/gateway/listen-resources.js';

test('one upstream watch per URI however many listens name it, ended with the last', () => {
  const open: string[] = [];
  const watches = new SharedWatches((uris) => {
    open.push(...uris);
    return { dispose: () => uris.forEach((u) => open.splice(open.indexOf(u), 1)) };
  });
  const a = watches.add(['x://1', 'x://2', 'x://1']);
  const b = watches.add(['x://1']);
  assert.deepEqual(open.sort(), ['x://1', 'x://2']);
  a.dispose();
  a.dispose();
  assert.deepEqual(open, ['x://1']);
  b.dispose();
  assert.deepEqual(open, []);
});

test('only a subscriptions/listen request with resourceSubscriptions names URIs', () => {
  const listen = (notifications: unknown): unknown => ({
    jsonrpc: '2.0',
    id: 'listen:1',
    method: 'subscriptions/listen',
    params: { notifications },
  });
  assert.deepEqual(listenedResources(listen({ resourceSubscriptions: ['x://1', 7] })), {
    id: 'listen:1',
    uris: ['x://1'],
  });
  assert.equal(listenedResources(listen({ toolsListChanged: true })), undefined);
  assert.equal(listenedResources({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), undefined);
  assert.equal(listenedResources(null), undefined);
});
