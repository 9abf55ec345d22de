/**
 * A stdio server that quits on the `server/discover` probe (probe-exit.mjs) instead of answering an
 * error: the first connect starts it again with `initialize` only, the verdict is remembered as
 * legacy (the next host starts one process), and no process is left behind.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost, type McpHost } from '../../../src/core/host.js';
import type { KeyValueStore } from '../../../src/core/ports.js';
import { FIXTURES, MemoryLogger, def, isAlive, tempDir, textOf, waitFor } from './helpers.js';
import { serverScript } from '../../support/fixture-servers.js';

const dir = tempDir('probe-exit');
const hosts: McpHost[] = [];
after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

function memory(): KeyValueStore {
  const data = new Map<string, unknown>();
  return { get: <T>(k: string) => data.get(k) as T | undefined, update: async (k, v) => void data.set(k, v) };
}

const starts = (file: string): number[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('start '))
    .map((l) => Number(l.split(' ')[1]));

for (const mode of ['exit', 'close-stdout'] as const) {
  describe(`a stdio server that answers the probe with ${mode === 'exit' ? 'exiting' : 'closing stdout'}`, () => {
    test('connects on the first try through a fresh process with initialize, then is known as legacy', async () => {
      const record = path.join(dir, `${mode}.log`);
      const server = def('quitter', {
        type: 'stdio',
        command: process.execPath,
        args: [serverScript(path.join(FIXTURES, 'probe-exit.mjs')), '--on-probe', mode, '--record', record],
      });
      const store = memory();
      const log = new MemoryLogger();
      const host = createHost({ logger: log, blobDir: dir, eraStore: store });
      hosts.push(host);
      host.setDefinitions([server]);
      await waitFor(host, 'quitter', (s) => s.state.kind === 'connected' || s.state.kind === 'failed');
      const state = host.server('quitter')!.state;
      assert.equal(state.kind, 'connected', JSON.stringify(state));
      assert.equal(state.kind === 'connected' && state.protocolVersion, '2025-11-25');
      assert.equal(textOf(await host.callTool('quitter', 'hello', {})), 'hello');
      const [probed, served] = starts(record);
      assert.equal(starts(record).length, 2, 'one process for the probe, one for the session');
      assert.equal(isAlive(probed!), false, 'the probed process is gone');
      assert.equal(host.pid('quitter'), served);
      await host.dispose();
      assert.equal(isAlive(served!), false);

      const again = createHost({ logger: new MemoryLogger(), blobDir: dir, eraStore: store });
      hosts.push(again);
      again.setDefinitions([server]);
      await waitFor(again, 'quitter', (s) => s.state.kind === 'connected' || s.state.kind === 'failed');
      assert.equal(again.server('quitter')!.state.kind, 'connected');
      assert.equal(starts(record).length, 3, 'a known legacy server is not probed again');
      await again.dispose();
    });
  });
}
