import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import {
  RequestPairer,
  classify,
  filterRecords,
  makeRecord,
  parseNdjson,
  redactMessage,
  toNdjson,
} from '../../../src/core/trace/record.js';
import { TraceHub } from '../../../src/core/trace/hub.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';

const req = (id: number, method: string, params?: unknown): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }) as JSONRPCMessage;
const res = (id: number, result: unknown): JSONRPCMessage => ({ jsonrpc: '2.0', id, result }) as JSONRPCMessage;

test('classify tells requests, responses, errors and notifications apart', () => {
  assert.deepEqual(classify(req(1, 'tools/list')), { kind: 'request', method: 'tools/list', id: 1 });
  assert.deepEqual(classify(res(1, {})), { kind: 'response', id: 1 });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: 'a', error: { code: -1, message: 'x' } } as JSONRPCMessage), {
    kind: 'error',
    id: 'a',
  });
  assert.deepEqual(classify({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage), {
    kind: 'notification',
    method: 'notifications/initialized',
  });
});

test('makeRecord pairs a response with the request that went the other way and measures the duration', () => {
  const p = new RequestPairer();
  const out = makeRecord('s', 'out', req(7, 'tools/call', { name: 'echo' }), 1000, p, []);
  assert.equal(out.kind, 'request');
  assert.equal(out.method, 'tools/call');
  assert.equal(out.durationMs, undefined);
  // A server request with the same id travelling in does not answer our request.
  const serverReq = makeRecord('s', 'in', req(7, 'roots/list'), 1010, p, []);
  assert.equal(serverReq.method, 'roots/list');
  const ours = makeRecord('s', 'in', res(7, { content: [] }), 1042, p, []);
  assert.equal(ours.method, 'tools/call');
  assert.equal(ours.durationMs, 42);
  const theirs = makeRecord('s', 'out', res(7, { roots: [] }), 1050, p, []);
  assert.equal(theirs.method, 'roots/list');
  assert.equal(theirs.durationMs, 40);
  // Each request is answered once.
  assert.equal(makeRecord('s', 'in', res(7, {}), 1100, p, []).durationMs, undefined);
  assert.equal(out.size, Buffer.byteLength(JSON.stringify(req(7, 'tools/call', { name: 'echo' }))));
  assert.equal(out.time, new Date(1000).toISOString());
});

test('redactMessage hides secret keys, token shapes and the literal secret values given', () => {
  const msg = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      content: [{ type: 'text', text: 'key is hunter2-very-secret, token ghp_abcdefghijklmnopqrstuvwxyz123456' }],
      apiKey: 'abc',
    },
  };
  const r = JSON.stringify(redactMessage(msg, ['hunter2-very-secret', 'ab']));
  assert.ok(!r.includes('hunter2-very-secret'), r);
  assert.ok(!r.includes('ghp_abcdefghijklmnopqrstuvwxyz123456'), r);
  assert.match(r, /"apiKey":"\[redacted\]"/);
  // Values shorter than 4 characters are not treated as secrets (they would mangle everything).
  assert.match(r, /"jsonrpc":"2.0"/);
  // A secret with a quote in it is still found inside the JSON text.
  assert.ok(!JSON.stringify(redactMessage({ t: 'a"quoted"secret' }, ['a"quoted"secret'])).includes('quoted'));
});

test('NDJSON round-trips records, one per line, and names a bad line', () => {
  const p = new RequestPairer();
  const recs = [makeRecord('s', 'out', req(1, 'ping'), 1, p, []), makeRecord('s', 'in', res(1, {}), 3, p, [])];
  const text = toNdjson(recs);
  assert.equal(text.split('\n').length, 3);
  assert.ok(text.endsWith('\n'));
  assert.deepEqual(parseNdjson(text), recs);
  assert.equal(toNdjson([]), '');
  assert.throws(() => parseNdjson('{"a":1}\n\nnot json\n'), /line 3/);
});

test('filterRecords filters by method substring and by direction', () => {
  const p = new RequestPairer();
  const recs = [
    makeRecord('s', 'out', req(1, 'tools/list'), 1, p, []),
    makeRecord('s', 'in', res(1, { tools: [] }), 2, p, []),
    makeRecord('s', 'out', req(2, 'ping'), 3, p, []),
  ];
  assert.deepEqual(
    filterRecords(recs, { method: 'TOOLS' }).map((r) => r.kind),
    ['request', 'response'],
  );
  assert.deepEqual(
    filterRecords(recs, { direction: 'in' }).map((r) => r.method),
    ['tools/list'],
  );
  assert.deepEqual(filterRecords(recs, { method: 'tools', direction: 'out' }).length, 1);
  assert.equal(filterRecords(recs, {}).length, 3);
});

test('TraceHub records only while a server is traced, per server, within capacity', async () => {
  const def = {
    name: 'srv',
    config: { type: 'stdio', command: 'x', args: [], env: { TOKEN: 'zz-secret-zz' } },
  } as unknown as ServerDefinition;
  const sunk: string[] = [];
  let now = 0;
  const hub = new TraceHub({ capacity: 2, now: () => ++now, sink: (r) => sunk.push(r.method ?? r.kind) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const traced = hub.attach(def, a);
  const got: JSONRPCMessage[] = [];
  traced.onmessage = (m) => got.push(m);
  b.onmessage = () => {};
  await traced.start();
  await b.start();
  await traced.send(req(1, 'ping'));
  assert.equal(hub.records('srv').length, 0, 'off by default');
  hub.setEnabled('srv', true);
  await traced.send(req(2, 'tools/list'));
  await b.send(res(2, { tools: [], note: 'zz-secret-zz' }));
  await b.send(req(3, 'roots/list'));
  assert.equal(got.length, 2, 'messages still reach the client');
  assert.deepEqual(sunk, ['tools/list', 'tools/list', 'roots/list']);
  const recs = hub.records('srv');
  assert.equal(recs.length, 2);
  assert.equal(hub.dropped('srv'), 1);
  assert.ok(!JSON.stringify(recs).includes('zz-secret-zz'));
  hub.setEnabledServers('*');
  assert.ok(hub.isEnabled('other'));
  hub.setEnabledServers([]);
  assert.ok(!hub.isEnabled('srv'));
});

test('formatTrace: direction arrows, ids, paired durations, sizes, filters and cut JSON', async () => {
  const { formatTrace } = await import('../../../src/core/trace/format.js');
  const p = new RequestPairer();
  const recs = [
    makeRecord(
      's',
      'out',
      req(1, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(100) } }),
      Date.UTC(2026, 0, 1, 10, 0, 0, 5),
      p,
      [],
    ),
    makeRecord('s', 'in', res(1, { content: [] }), Date.UTC(2026, 0, 1, 10, 0, 0, 47), p, []),
    makeRecord('s', 'out', req(2, 'ping'), Date.UTC(2026, 0, 1, 10, 0, 1), p, []),
  ];
  const text = formatTrace('s', recs, {}, { maxJson: 40, dropped: 3 });
  assert.match(text, /3 of 3 messages, 3 older ones dropped/);
  assert.match(text, /10:00:00\.005 {2}→ {2}request +#1 +tools\/call/);
  assert.match(text, /10:00:00\.047 {2}← {2}response +#1 +tools\/call +42 ms/);
  assert.match(text, /more characters; export NDJSON/);
  const only = formatTrace('s', recs, { method: 'ping' });
  assert.match(only, /1 of 3 messages \(method contains "ping"\)/);
  assert.doesNotMatch(only, /tools\/call/);
  assert.match(formatTrace('s', [], {}, { enabled: false }), /Tracing is off/);
});
