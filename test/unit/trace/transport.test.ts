// The one wrapper transport's tap (trace/transport.ts): a tap that throws neither eats a message
// nor keeps one from being sent, the reader's own throw stays the reader's, and handlers the
// owner of a server-side transport set before it was wrapped keep being called.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { ObservedTransport } from '../../../src/core/trace/transport.js';

const ping: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'ping' };

test('a throwing tap still delivers and sends the message as it came', async () => {
  const [ours, peer] = InMemoryTransport.createLinkedPair();
  const wrapped = new ObservedTransport(ours, () => undefined, {
    deliver: () => {
      throw new Error('tap broke before delivering');
    },
    rewrite: () => {
      throw new Error('tap broke while rewriting');
    },
    closed: () => {
      throw new Error('tap broke on close');
    },
  });
  const read: JSONRPCMessage[] = [];
  const atPeer: JSONRPCMessage[] = [];
  let closed = 0;
  wrapped.onmessage = (m) => read.push(m);
  wrapped.onclose = () => closed++;
  peer.onmessage = (m) => atPeer.push(m);
  await Promise.all([wrapped.start(), peer.start()]);
  await peer.send(ping);
  await wrapped.send({ jsonrpc: '2.0', id: 1, result: {} });
  assert.deepEqual(read, [ping]);
  assert.deepEqual(atPeer, [{ jsonrpc: '2.0', id: 1, result: {} }]);
  await wrapped.close();
  assert.equal(closed, 1);
});

test('a tap delivers once, inside what it wraps; the reader’s throw reaches the caller', async () => {
  const [ours] = InMemoryTransport.createLinkedPair();
  const order: string[] = [];
  const wrapped = new ObservedTransport(ours, () => undefined, {
    deliver: (_m, deliver) => {
      order.push('before');
      deliver();
      deliver();
      order.push('after');
    },
  });
  wrapped.onmessage = () => {
    order.push('read');
    throw new Error('the reader failed');
  };
  assert.throws(() => ours.onmessage!(ping), /the reader failed/);
  assert.deepEqual(order, ['before', 'read', 'after']);
});

test('handlers set on the inner transport before it was wrapped are kept', async () => {
  const [ours, peer] = InMemoryTransport.createLinkedPair();
  let ownerHeardClose = 0;
  ours.onclose = () => ownerHeardClose++;
  const wrapped = new ObservedTransport(ours, () => undefined);
  assert.equal(typeof wrapped.onclose, 'function');
  await Promise.all([wrapped.start(), peer.start()]);
  await wrapped.close();
  assert.equal(ownerHeardClose, 1);
});
