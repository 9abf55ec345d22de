// "Send Request…" underneath: any method with any params to a live server, the result unchecked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHost } from '../../../src/core/host.js';
import { MemoryLogger, stdioDef, tempDir } from '../connection/helpers.js';

test('request: ping, a spec request with params, and a method the server does not know', async () => {
  const host = createHost({ logger: new MemoryLogger(), blobDir: tempDir('req-blobs') });
  try {
    host.setDefinitions([stdioDef('fx')]);
    await host.whenSettled();
    assert.deepEqual(await host.request('fx', 'ping', undefined), {});
    const listed = (await host.request('fx', 'tools/list', {})) as { tools: { name: string }[] };
    assert.ok(listed.tools.some((t) => t.name === 'echo'));
    const called = (await host.request('fx', 'tools/call', { name: 'echo', arguments: { text: 'raw' } })) as {
      content: { text: string }[];
    };
    assert.equal(called.content[0]!.text, 'echo: raw');
    await assert.rejects(host.request('fx', 'no/such/method', {}), (e: Error) =>
      /no\/such\/method on fx failed: .*Method not found/i.test(e.message),
    );
  } finally {
    await host.dispose();
  }
});
