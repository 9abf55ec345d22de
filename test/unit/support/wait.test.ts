import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/events.js';
import type { ServerChangeEvent, ServerSnapshot } from '../../../src/core/host-api.js';
import type { McpHost } from '../../../src/core/host.js';
import { untilServer, withDeadline } from '../../support/wait.js';

/** Just the two members untilServer reads; the server never changes. */
function stillHost(): McpHost {
  const changes = new Emitter<ServerChangeEvent>();
  const snapshot = { name: 's', state: { kind: 'connecting' } } as unknown as ServerSnapshot;
  return { server: () => snapshot, onDidChangeServer: changes.event } as unknown as McpHost;
}

test('a wait on a server that never gets there fails at its deadline, naming the server and its state', async () => {
  await assert.rejects(
    untilServer(stillHost(), 's', (s) => s.state.kind === 'connected', 20),
    /timed out after 20 ms waiting for s; state now \{"kind":"connecting"\}/,
  );
});

test('withDeadline rejects a promise that never settles, naming what it waited for', async () => {
  await assert.rejects(withDeadline(new Promise(() => {}), 'reply', 20), /no reply within 20 ms/);
  assert.equal(await withDeadline(Promise.resolve(7), 'seven', 20), 7);
});
