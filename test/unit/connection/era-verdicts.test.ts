import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EraVerdicts } from '../../../src/core/connection/era.js';
import type { ServerConfig } from '../../../src/core/config/types.js';
import { FakeClock, MemoryKeyValueStore } from '../../support/fakes.js';

const clock = new FakeClock();
const stdio = (env?: Record<string, string>, cwd?: string): ServerConfig =>
  ({
    type: 'stdio',
    command: 'node',
    args: ['server.mjs'],
    ...(env ? { env } : {}),
    ...(cwd ? { cwd } : {}),
  }) as ServerConfig;

test('a verdict is kept per stdio server: the same command with another env or folder is probed afresh', async () => {
  const verdicts = new EraVerdicts(new MemoryKeyValueStore(), clock);
  await verdicts.remember(stdio({ ERAS: 'both' }), undefined);
  assert.deepEqual(verdicts.prior(stdio({ ERAS: 'both' })), { kind: 'legacy' });
  assert.equal(verdicts.prior(stdio()), undefined, 'no env: another server');
  assert.equal(verdicts.prior(stdio({ ERAS: 'legacy' })), undefined, 'another env value');
  assert.equal(verdicts.prior(stdio({ ERAS: 'both' }, '/elsewhere')), undefined, 'another folder');
});

test('an HTTP server is known by its URL', async () => {
  const verdicts = new EraVerdicts(new MemoryKeyValueStore(), clock);
  const http = { type: 'http', url: 'http://127.0.0.1:1/mcp' } as ServerConfig;
  await verdicts.remember(http, undefined);
  assert.deepEqual(verdicts.prior({ ...http, headers: { 'X-A': 'b' } } as ServerConfig), { kind: 'legacy' });
});
