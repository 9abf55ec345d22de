import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostContent } from '../../../src/core/host-api.js';
import { toWireContents, toWireResourceContents } from '../../../src/core/capabilities/wire.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-host-wire-'));
const blobPath = join(dir, 'b.bin');
writeFileSync(blobPath, Buffer.from([1, 2, 3]));

test('content blocks go back to the wire shape: blobs read back inline, URIs mapped, fields kept', async () => {
  const list: HostContent[] = [
    { type: 'text', text: 'hi' },
    { type: 'image', mimeType: 'image/png', data: 'AAA=' },
    { type: 'resource_link', uri: 'file:///a', name: 'a', description: 'd', mimeType: 'text/plain' },
    { type: 'resource', uri: 'file:///b', mimeType: 'application/octet-stream', blobPath },
    { type: 'resource', uri: 'file:///c', text: 'c' },
  ];
  const out = await toWireContents(list, { mapUri: (u) => `mapped:${u}` });
  assert.deepEqual(out, [
    { type: 'text', text: 'hi' },
    { type: 'image', mimeType: 'image/png', data: 'AAA=' },
    { type: 'resource_link', uri: 'mapped:file:///a', name: 'a', description: 'd', mimeType: 'text/plain' },
    { type: 'resource', resource: { uri: 'mapped:file:///b', mimeType: 'application/octet-stream', blob: 'AQID' } },
    { type: 'resource', resource: { uri: 'mapped:file:///c', text: 'c' } },
  ]);
});

test('a blob the reader leaves out becomes a link in content and is dropped from a read; the default reader throws on a missing file', async () => {
  const leaveOut = { readBlob: (): Promise<undefined> => Promise.resolve(undefined) };
  const [block] = await toWireContents(
    [{ type: 'resource', uri: 'file:///big', mimeType: 'video/mp4', blobPath }],
    leaveOut,
  );
  assert.deepEqual(block, { type: 'resource_link', uri: 'file:///big', mimeType: 'video/mp4', name: 'file:///big' });
  const read = {
    contents: [
      { uri: 'ui://app', mimeType: 'text/html', text: '<p>', meta: { ui: { csp: {} } } },
      { uri: 'file:///big', blobPath },
    ],
  };
  assert.deepEqual(await toWireResourceContents(read, leaveOut), [
    { uri: 'ui://app', mimeType: 'text/html', _meta: { ui: { csp: {} } }, text: '<p>' },
  ]);
  assert.deepEqual(await toWireResourceContents({ contents: [{ uri: 'file:///b', blobPath }] }), [
    { uri: 'file:///b', blob: 'AQID' },
  ]);
  await assert.rejects(
    toWireResourceContents({ contents: [{ uri: 'file:///gone', blobPath: join(dir, 'gone') }] }),
    /ENOENT/,
  );
});
