import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/events.js';
import type { ServerChangeEvent, ServerSnapshot } from '../../../src/core/host-api.js';
import type { McpHost } from '../../../src/core/host.js';
import { poll, pollUntil, untilServer, withDeadline } from '../../support/wait.js';

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

test('poll returns the first value its probe gives, and at its deadline names what it waited for and the last error', async () => {
  let n = 0;
  assert.equal(await poll('three', 1000, () => (++n === 3 ? n : undefined), 1), 3);
  await assert.rejects(
    poll(
      'a file',
      20,
      () => {
        throw new Error('ENOENT');
      },
      1,
    ),
    /timed out after 20 ms waiting for a file: Error: ENOENT/,
  );
});

test('pollUntil is true once the condition holds, false when the deadline came first', async () => {
  let n = 0;
  assert.equal(await pollUntil(() => ++n >= 2, 1000, 1), true);
  assert.equal(await pollUntil(() => false, 20, 1), false);
});
