import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { toPromptGetResult, toResourceReadResult, toToolCallResult } from '../../../src/core/capabilities/index.js';

async function withBlobDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-blobs-'));
  try {
    await fn(join(dir, 'blobs'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('tool results keep text, image, audio, resource links, embedded text and isError', async () => {
  await withBlobDir(async (dir) => {
    const raw: CallToolResult = {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
        { type: 'resource_link', uri: 'file:///x.txt', name: 'x', description: 'a file', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'mem://t', mimeType: 'text/plain', text: 'inline' } },
      ],
      isError: true,
    };
    const r = await toToolCallResult(raw, 12, dir);
    assert.equal(r.isError, true);
    assert.equal(r.durationMs, 12);
    assert.deepEqual(r.content, [
      { type: 'text', text: 'hello' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
      { type: 'resource_link', uri: 'file:///x.txt', name: 'x', description: 'a file', mimeType: 'text/plain' },
      { type: 'resource', uri: 'mem://t', mimeType: 'text/plain', text: 'inline' },
    ]);
    assert.equal(r.structuredContent, undefined);
  });
});

test('an embedded blob is written to a file named by its hash and the result carries its path, not the base64', async () => {
  await withBlobDir(async (dir) => {
    const bytes = Buffer.alloc(300_000, 7);
    const b64 = bytes.toString('base64');
    const raw: CallToolResult = {
      content: [{ type: 'resource', resource: { uri: 'mem://bin', mimeType: 'image/png', blob: b64 } }],
      structuredContent: { ok: true },
    };
    const r = await toToolCallResult(raw, 1, dir);
    const block = r.content[0]!;
    assert.equal(block.type, 'resource');
    const blobPath = (block as { blobPath?: string }).blobPath!;
    const expected = createHash('sha256').update(bytes).digest('hex');
    assert.equal(blobPath, join(dir, `${expected}.png`));
    assert.deepEqual(await readFile(blobPath), bytes);
    assert.ok(!JSON.stringify(r).includes(b64.slice(0, 1000)), 'no base64 left in the result');
    assert.deepEqual(r.structuredContent, { ok: true });
    assert.equal(r.isError, false);
    // The same blob again: same file, nothing new written.
    await toToolCallResult(raw, 1, dir);
    assert.equal((await readdir(dir)).length, 1);
  });
});

test('resource reads put text inline and blobs in files, with sizes', async () => {
  await withBlobDir(async (dir) => {
    const r = await toResourceReadResult(
      {
        contents: [
          { uri: 'a://1', mimeType: 'text/plain', text: 'héllo' },
          { uri: 'a://2', blob: Buffer.from('abc').toString('base64') },
        ],
      },
      dir,
    );
    assert.deepEqual(r.contents[0], { uri: 'a://1', mimeType: 'text/plain', text: 'héllo', size: 6 });
    assert.equal(r.contents[1]!.size, 3);
    assert.ok(r.contents[1]!.blobPath!.endsWith('.bin'));
    assert.equal(await readFile(r.contents[1]!.blobPath!, 'utf8'), 'abc');
  });
});

test('prompt results keep roles and content, blobs moved to files', async () => {
  await withBlobDir(async (dir) => {
    const r = await toPromptGetResult(
      {
        description: 'd',
        messages: [
          { role: 'user', content: { type: 'text', text: 'hi' } },
          {
            role: 'assistant',
            content: { type: 'resource', resource: { uri: 'x://b', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
          },
        ],
      },
      dir,
    );
    assert.equal(r.description, 'd');
    assert.deepEqual(r.messages[0], { role: 'user', content: { type: 'text', text: 'hi' } });
    assert.equal(r.messages[1]!.role, 'assistant');
    assert.match((r.messages[1]!.content as { blobPath: string }).blobPath, /\.pdf$/);
  });
});

test('an unknown content type is reported as text, and legacy toolResult answers are kept', async () => {
  await withBlobDir(async (dir) => {
    const r = await toToolCallResult({ content: [{ type: 'hologram' }] } as unknown as CallToolResult, 0, dir);
    assert.deepEqual(r.content, [{ type: 'text', text: '[unsupported content type "hologram"]' }]);
    const legacy = await toToolCallResult({ toolResult: { sum: 3 } } as unknown as CallToolResult, 0, dir);
    assert.deepEqual(legacy.content, [{ type: 'text', text: '{"sum":3}' }]);
  });
});
