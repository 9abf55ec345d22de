/**
 * What a failed server's summary says when Node cannot load its entry file: the cause line
 * (`Error: Cannot find module …`) above the stack's tail, and the error code as Node printed it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost } from '../../../src/core/host.js';
import { MemoryLogger, def, tempDir, waitFor } from './helpers.js';

const dir = tempDir('failed-summary');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('an entry file that is missing: the failed state names the cause and keeps MODULE_NOT_FOUND', async () => {
  const host = createHost({ logger: new MemoryLogger(), blobDir: dir, env: {} });
  try {
    const missing = path.join(dir, 'no-such-server.js');
    host.setDefinitions([def('missing', { type: 'stdio', command: process.execPath, args: [missing] })]);
    const s = await waitFor(host, 'missing', (x) => x.state.kind === 'failed');
    assert.equal(s.state.kind, 'failed');
    const message = s.state.kind === 'failed' ? s.state.error.message : '';
    assert.match(message, /exited with code 1/);
    assert.match(message, /Error: Cannot find module '.*no-such-server\.js'/);
    assert.match(message, /code: 'MODULE_NOT_FOUND'/);
  } finally {
    await host.dispose();
  }
});
