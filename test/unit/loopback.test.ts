import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage } from 'node:http';
import { checkLoopbackAccess, listenOnLoopback } from '../../src/core/loopback.js';

const req = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;

test('checkLoopbackAccess: Origin, then Host, then the token, each with its status', () => {
  const host = { host: '127.0.0.1:9' };
  assert.deepEqual(checkLoopbackAccess(req(host), 's', 's', 9), { ok: true });
  assert.deepEqual(checkLoopbackAccess(req({ host: '[::1]:9' }), 's', 's', 9), { ok: true });
  assert.deepEqual(checkLoopbackAccess(req({ ...host, origin: 'null' }), 's', 's', 9), {
    ok: false,
    status: 403,
    reason: 'browser origin refused',
  });
  assert.deepEqual(checkLoopbackAccess(req({ host: 'evil.example:9' }), 's', 's', 9), {
    ok: false,
    status: 403,
    reason: 'host not loopback',
  });
  assert.deepEqual(checkLoopbackAccess(req({ host: 'localhost:10' }), 's', 's', 9), {
    ok: false,
    status: 403,
    reason: 'host not loopback',
  });
  assert.deepEqual(checkLoopbackAccess(req(host), undefined, 's', 9), {
    ok: false,
    status: 401,
    reason: 'missing token',
  });
  assert.deepEqual(checkLoopbackAccess(req(host), '', 's', 9), { ok: false, status: 401, reason: 'missing token' });
  assert.deepEqual(checkLoopbackAccess(req(host), 'S', 's', 9), { ok: false, status: 401, reason: 'wrong token' });
});

test('listenOnLoopback resolves with the OS-chosen port, reachable on 127.0.0.1', async () => {
  const http = createServer((_q, r) => r.end('here'));
  const port = await listenOnLoopback(http);
  assert.ok(port > 0);
  assert.equal((http.address() as { address: string }).address, '127.0.0.1');
  const body = await new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    })
      .on('error', reject)
      .end();
  });
  assert.equal(body, 'here');
  await new Promise<void>((resolve) => http.close(() => resolve()));
});
