import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { AUTH_HEADER, checkUpgrade } from '../../../src/core/ide/auth.js';
import { generateToken, tokensEqual } from '../../../src/core/loopback.js';

function req(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

test('tokens are 256 random bits, different every time', () => {
  const tokens = new Set(Array.from({ length: 100 }, generateToken));
  assert.equal(tokens.size, 100);
  for (const t of tokens) assert.equal(Buffer.from(t, 'base64url').length, 32);
});

test('tokensEqual compares content and length', () => {
  const t = generateToken();
  assert.equal(tokensEqual(t, t), true);
  assert.equal(tokensEqual(t.slice(0, -1), t), false);
  assert.equal(tokensEqual(t + 'A', t), false);
  assert.equal(tokensEqual('', t), false);
  assert.equal(tokensEqual(t.toUpperCase() === t ? t.toLowerCase() : t.toUpperCase(), t), false);
});

test('checkUpgrade: token, origin and host rules', () => {
  const t = generateToken();
  const ok = { host: '127.0.0.1:4000', [AUTH_HEADER]: t };
  assert.deepEqual(checkUpgrade(req(ok), t, 4000), { ok: true });
  assert.deepEqual(checkUpgrade(req({ ...ok, host: 'localhost:4000' }), t, 4000), { ok: true });
  assert.equal(checkUpgrade(req({ host: '127.0.0.1:4000' }), t, 4000).ok, false);
  const wrong = checkUpgrade(req({ ...ok, [AUTH_HEADER]: generateToken() }), t, 4000);
  assert.deepEqual(wrong, { ok: false, status: 401, reason: 'wrong token' });
  assert.deepEqual(checkUpgrade(req({ ...ok, origin: 'https://a.example' }), t, 4000), {
    ok: false,
    status: 403,
    reason: 'browser origin refused',
  });
  assert.equal(checkUpgrade(req({ ...ok, host: '127.0.0.1:4001' }), t, 4000).ok, false);
  assert.equal(checkUpgrade(req({ ...ok, host: 'attacker.example:4000' }), t, 4000).ok, false);
});
