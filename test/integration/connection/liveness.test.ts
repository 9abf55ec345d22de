/**
 * State and liveness agree (lifecycle-table.ts, `livenessBroken`): a server shows `connected`
 * exactly when it has a live client, here one with a live process (`host.pid`), checked at every
 * change event and right after every operation is called, across a stop, a start, a restart and a
 * crash of a real stdio fixture process.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHost } from '../../../src/core/host.js';
import { MemoryLogger, stdioDef, tempDir } from './helpers.js';
import { untilServer, withDeadline } from '../../support/wait.js';

const dir = tempDir('liveness');
const host = createHost({ logger: new MemoryLogger(), blobDir: dir, env: {} });
after(() => host.dispose());

test('connected exactly when a live client exists: across stop, start, restart and a crash', async () => {
  const broken: string[] = [];
  const check = (when: string): void => {
    const s = host.server('a');
    if (!s) return;
    const live = host.pid('a') !== undefined;
    if ((s.state.kind === 'connected') !== live)
      broken.push(`${when}: state ${s.state.kind} with ${live ? 'a live process' : 'no live client'}`);
  };
  const sub = host.onDidChangeServer((e) => e.name === 'a' && check(`event (${e.snapshot?.state.kind})`));
  try {
    host.setDefinitions([stdioDef('a')]);
    await withDeadline(host.whenSettled(), 'first connect');
    assert.equal(host.server('a')?.state.kind, 'connected');
    check('connected');

    const stopping = host.stop('a');
    check('stop called');
    await withDeadline(stopping, 'stop');
    check('stopped');
    assert.equal(host.server('a')?.state.kind, 'disabled');

    await withDeadline(host.start('a'), 'start');
    check('started');
    assert.equal(host.server('a')?.state.kind, 'connected');

    const restarting = host.restart('a');
    check('restart called');
    await withDeadline(restarting, 'restart');
    check('restarted');
    assert.equal(host.server('a')?.state.kind, 'connected');

    // The fixture's `crash` tool exits the process: failed, with no live client left behind.
    await host.callTool('a', 'crash', { code: 3 }).catch(() => undefined);
    await untilServer(host, 'a', (s) => s.state.kind === 'failed');
    check('crashed');
    await withDeadline(host.start('a'), 'start after the crash');
    check('started after the crash');
    assert.equal(host.server('a')?.state.kind, 'connected');
  } finally {
    sub.dispose();
  }
  assert.deepEqual(broken, []);
});
