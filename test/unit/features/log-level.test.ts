/**
 * applyLogLevel on a 2026-07-28 connection: the level rides in each request's `_meta`, so it is
 * handed to the host's own client (connection/host-client.ts), which features tell apart by the
 * field it reads, not by importing the connection (ARCHITECTURE.md, "Layers").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { applyLogLevel } from '../../../src/core/features/logging.js';
import { HostClient } from '../../../src/core/connection/host-client.js';
import { nullLogger } from '../../../src/core/ports.js';

/** A client that says it is on a modern connection to a server with logging, with nothing on the wire. */
function modern<C extends Client>(client: C): C {
  Object.assign(client, {
    getServerCapabilities: () => ({ logging: {} }),
    getProtocolEra: () => 'modern',
    setLoggingLevel: () => Promise.reject(new Error('no logging/setLevel on a modern connection')),
  });
  return client;
}

test('a modern HostClient gets the level for its requests; a plain client is left alone', async () => {
  const host = modern(new HostClient({ name: 't', version: '1' }));
  assert.equal(host.logLevel, undefined);
  await applyLogLevel(host, 'debug', nullLogger);
  assert.equal(host.logLevel, 'debug');

  const plain = modern(new Client({ name: 't', version: '1' }));
  await applyLogLevel(plain, 'debug', nullLogger);
  assert.equal((plain as Client & { logLevel?: unknown }).logLevel, undefined);
  assert.equal('logLevel' in plain, false);
});
