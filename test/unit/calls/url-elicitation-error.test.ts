import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProtocolError, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { urlElicitationsOf } from '../../../src/core/calls/url-elicitation-error.js';

const req = { mode: 'url' as const, url: 'https://auth.example.com/x', message: 'Sign in', elicitationId: 'e1' };

test('finds URL elicitations in a -32042 error, also when wrapped as a cause', () => {
  const sdk = new UrlElicitationRequiredError([req]);
  assert.deepEqual(urlElicitationsOf(sdk), [{ url: req.url, message: 'Sign in', elicitationId: 'e1' }]);
  const wrapped = new Error('tool failed', { cause: sdk });
  assert.deepEqual(urlElicitationsOf(wrapped), [{ url: req.url, message: 'Sign in', elicitationId: 'e1' }]);
});

test('other errors are not URL elicitations; malformed entries are dropped', () => {
  assert.equal(urlElicitationsOf(new ProtocolError(-32603, 'internal')), undefined);
  assert.equal(urlElicitationsOf(new Error('plain')), undefined);
  assert.equal(urlElicitationsOf(undefined), undefined);
  assert.deepEqual(urlElicitationsOf(new ProtocolError(-32042, 'x', { elicitations: [{ nope: 1 }, req] })), [
    { url: req.url, message: 'Sign in', elicitationId: 'e1' },
  ]);
  assert.deepEqual(urlElicitationsOf(new ProtocolError(-32042, 'x')), []);
});
