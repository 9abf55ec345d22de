import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeInline,
  escapeMarkdown,
  fence,
  promptPlainText,
  renderFailure,
  renderPrompt,
  renderResource,
  renderToolResult,
  type RenderOptions,
} from '../../../src/core/calls/render-markdown.js';

const opts: RenderOptions = { linkFor: (server, uri) => `link:${server}:${encodeURIComponent(uri)}` };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test('a tool result shows text as Markdown, images as data URIs, links through linkFor, structured JSON', () => {
  const md = renderToolResult(
    {
      server: 'everything',
      tool: 'echo',
      args: { message: 'hi' },
      result: {
        isError: false,
        durationMs: 12.4,
        content: [
          { type: 'text', text: 'Echo: **hi**' },
          { type: 'image', mimeType: 'image/png', data: PNG },
          { type: 'resource_link', uri: 'demo://resource/1', name: 'Resource 1', description: 'first' },
          { type: 'resource', uri: 'file:///a.json', mimeType: 'application/json', text: '{"a":1}' },
        ],
        structuredContent: { sum: 3 },
      },
    },
    opts,
  );
  assert.match(md, /^# echo\n/);
  assert.match(md, /_Server \*\*everything\*\* · 12 ms_/);
  assert.match(md, /\nEcho: \*\*hi\*\*\n/, 'text is kept as Markdown');
  assert.ok(md.includes(`![image](data:image/png;base64,${PNG})`));
  assert.ok(md.includes('[Resource 1 \\(demo://resource/1\\)](<link:everything:demo%3A%2F%2Fresource%2F1>) — first'));
  assert.ok(md.includes('```json\n{"a":1}\n```'));
  assert.ok(md.includes('## Structured content\n\n```json\n{\n  "sum": 3\n}\n```'));
  assert.ok(md.includes('## Arguments\n\n```json\n{\n  "message": "hi"\n}\n```'));
  assert.doesNotMatch(md, /Error/);
});

test('an isError result is marked as an error in the title and at the top', () => {
  const md = renderToolResult(
    {
      server: 's',
      tool: 't',
      args: {},
      result: { isError: true, durationMs: 1, content: [{ type: 'text', text: 'bad input' }] },
    },
    opts,
  );
  assert.match(md, /^# ❌ t failed\n/);
  assert.match(md, /> \*\*Error:\*\* the tool reported an error/);
  assert.ok(md.indexOf('Error:') < md.indexOf('bad input'));
});

test('oversized or non-image binary content is described, not inlined', () => {
  const md = renderToolResult(
    {
      server: 's',
      tool: 't',
      args: {},
      result: {
        isError: false,
        durationMs: 1,
        content: [
          { type: 'image', mimeType: 'image/png', data: 'A'.repeat(400) },
          { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
        ],
      },
    },
    { ...opts, maxInlineImageChars: 100 },
  );
  assert.match(md, /_\(image image\/png, 300 bytes: too large to show inline\)_/);
  assert.match(md, /_\(audio audio\/wav, 3 bytes\)_/);
  assert.doesNotMatch(md, /data:image/);
});

test('fences outgrow backticks inside content so it cannot break out', () => {
  const f = fence('a ```` b');
  assert.ok(f.startsWith('`````\n') && f.endsWith('\n`````'));
  assert.equal(fence('x', 'json'), '```json\nx\n```');
});

test('a failure document carries the message (escaped) and the arguments', () => {
  const md = renderFailure({ server: 's', title: 'echo failed', message: 'timed out <b>now</b>', args: { a: 1 } });
  assert.match(md, /^# ❌ echo failed/);
  assert.ok(md.includes('> **Error:** timed out \\<b\\>now\\</b\\>'));
  assert.ok(md.includes('"a": 1'));
});

test('resources: text fenced by MIME type, Markdown kept, blobs linked and images shown from data URIs', () => {
  const md = renderResource(
    {
      server: 's',
      uri: 'demo://r',
      result: {
        contents: [
          { uri: 'demo://r', mimeType: 'text/plain', text: 'plain' },
          { uri: 'demo://md', mimeType: 'text/markdown', text: '# Title' },
          { uri: 'demo://img', mimeType: 'image/png', blobPath: '/tmp/blobs/x.png', size: 70 },
          { uri: 'demo://bin', mimeType: 'application/octet-stream', blobPath: '/tmp/blobs/y.bin', size: 5 },
        ],
      },
    },
    { ...opts, blobImages: new Map([['/tmp/blobs/x.png', `data:image/png;base64,${PNG}`]]) },
  );
  assert.ok(md.includes('```\nplain\n```'));
  assert.ok(md.includes('\n# Title\n'));
  assert.ok(md.includes(`![demo://img](data:image/png;base64,${PNG})`));
  assert.ok(
    md.includes(
      '_Binary content (application/octet-stream, 5 bytes) saved to_ [/tmp/blobs/y.bin](<file:///tmp/blobs/y.bin>)',
    ),
  );
});

test('prompts: numbered role sections; plain text for the clipboard has no Markdown chrome', () => {
  const result = {
    description: 'A greeting',
    messages: [
      { role: 'user' as const, content: { type: 'text' as const, text: 'Hello Ada' } },
      { role: 'assistant' as const, content: { type: 'resource' as const, uri: 'demo://x', text: 'body' } },
    ],
  };
  const md = renderPrompt({ server: 's', name: 'greet', args: { name: 'Ada' }, result }, opts);
  assert.match(md, /^# greet\n/);
  assert.ok(md.includes('## 1. user\n\nHello Ada'));
  assert.ok(md.includes('## 2. assistant'));
  assert.ok(md.includes('"name": "Ada"'));
  assert.equal(promptPlainText(result), 'user:\nHello Ada\n\nassistant:\nbody');
});

test('resource links round-trip through their path; the relative href resolves from a result document', async () => {
  const { parseReadPath, readPath, resourceLinkHref, resultPath } =
    await import('../../../src/core/calls/result-links.js');
  const uri = 'demo://resource/dynamic/text/2?x=a b&y=ü#frag';
  const path = readPath('my server', uri);
  assert.match(path, /^\/read\/[A-Za-z0-9_-]+\/2-x-a-b-y-.*\.md$/);
  assert.deepEqual(parseReadPath(path), { server: 'my server', uri });
  const resolved = new URL(resourceLinkHref('my server', uri), `mcp-host-result://x${resultPath(7, 'echo')}`);
  assert.equal(resolved.pathname, path);
  assert.equal(parseReadPath('/read/bm90IGpzb24/x.md'), undefined, 'not JSON');
  assert.equal(parseReadPath('/r/1/echo.md'), undefined);
  assert.equal(resultPath(3, 'tool / with spaces'), '/r/3/tool-with-spaces.md');
});

test('one Markdown escaper: formatting and list starts are neutralised, paths and versions stay readable', () => {
  assert.equal(escapeMarkdown('[x](y) *a* <b> ~~s~~'), '\\[x\\]\\(y\\) \\*a\\* \\<b\\> \\~\\~s\\~\\~');
  assert.equal(
    escapeMarkdown('- item\n1. first\n  2. nested'),
    '\\- item\n1\\. first\n  2\\. nested',
    'a list never starts',
  );
  assert.equal(
    escapeMarkdown('v1.2.3 application/octet-stream /tmp/y.bin'),
    'v1.2.3 application/octet-stream /tmp/y.bin',
  );
  assert.equal(escapeInline('1.2.0 - a\nb'), '1.2.0 - a b', 'a mid-line fragment is one line and cannot start a list');
  const md = renderPrompt(
    { server: 's', name: 'p', args: {}, result: { description: '- not a list', messages: [] } },
    opts,
  );
  assert.ok(md.includes('> \\- not a list'));
});
