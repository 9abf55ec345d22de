import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitResult, limitToolResult, ResultStore, type WireItem } from '../../../src/core/gateway/result-limit.js';

const text = (t: string): WireItem => ({ type: 'text', text: t });

function uriIn(items: WireItem[]): string {
  const note = String(items[items.length - 1]?.text);
  const m = /(mcp-host-result:\/\/[0-9a-f-]+)\?page=1/.exec(note);
  assert.ok(m, note);
  return m[1]!;
}

test('a result within the limit passes unchanged', async () => {
  const store = new ResultStore();
  const content = [text('a'.repeat(400))];
  assert.equal(await limitResult(content, { maxTokens: 100 }, store), content);
  assert.equal(store.count, 0);
});

test('a result past the limit is cut with a note, and the whole text reads back in pages', async () => {
  const store = new ResultStore();
  const whole = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
  const out = await limitResult([text(whole)], { maxTokens: 500 }, store);
  assert.equal(out.length, 2);
  assert.equal(out[0]?.text, whole.slice(0, 2000));
  assert.match(String(out[1]?.text), /over the limit of 500/);
  const base = uriIn(out);
  let back = '';
  for (let page = 1; ; page++) {
    try {
      back += store.read(`${base}?page=${page}`)![0]!.text;
    } catch (err) {
      assert.match((err as Error).message, /pages are 1 to/);
      break;
    }
  }
  assert.equal(back, whole);
  assert.equal(store.read('file:///x'), undefined);
});

test('binary content is never inlined past the limit: linked, and readable as a blob', async () => {
  const store = new ResultStore();
  const data = Buffer.alloc(30_000, 7).toString('base64');
  const out = await limitResult(
    [text('caption'), { type: 'image', data, mimeType: 'image/png' }],
    { maxTokens: 1000 },
    store,
  );
  assert.ok(!JSON.stringify(out).includes(data.slice(0, 100)));
  const link = out.find((i) => i.type === 'resource_link');
  assert.ok(link, JSON.stringify(out));
  const [blob] = store.read(String(link.uri))!;
  assert.equal(blob?.blob, data);
  assert.equal(blob?.mimeType, 'image/png');
});

test('memory is bounded: the oldest results are dropped and say so when read', async () => {
  const store = new ResultStore(10_000);
  const first = uriIn(await limitResult([text('x'.repeat(6000))], { maxTokens: 100 }, store));
  const second = uriIn(await limitResult([text('y'.repeat(6000))], { maxTokens: 100 }, store));
  assert.equal(store.count, 1);
  assert.throws(() => store.read(first), /no longer kept/);
  assert.equal(store.read(second)![0]!.text, 'y'.repeat(400));
});

test('a limit of 0 turns limiting off', async () => {
  const content = [text('z'.repeat(1_000_000))];
  assert.equal(await limitResult(content, { maxTokens: 0 }, new ResultStore()), content);
});

test('structuredContent counts towards the limit; past it, it is not sent but kept in pages', async () => {
  const store = new ResultStore();
  const structured = { items: Array.from({ length: 300 }, (_, i) => `item ${i}`) };
  const out = await limitToolResult(
    { content: [text('short')], structuredContent: structured },
    { maxTokens: 100 },
    store,
  );
  assert.equal(out.structuredContent, undefined);
  assert.equal(out.isError, undefined);
  assert.equal(out.content[0]?.text, 'short');
  const note = String(out.content[out.content.length - 1]?.text);
  const base = /(mcp-host-result:\/\/[0-9a-f-]+)\?structured&page=1/.exec(note)?.[1];
  assert.ok(base, note);
  let json = '';
  for (let page = 1; page <= 100; page++) {
    try {
      json += store.read(`${base}?structured&page=${page}`)![0]!.text;
    } catch {
      break;
    }
  }
  assert.deepEqual(JSON.parse(json), structured);
  // A tool with an outputSchema: SDK clients need the error mark to accept a result without it.
  assert.equal(
    (await limitToolResult({ content: [text('x')], structuredContent: structured }, { maxTokens: 100 }, store, true))
      .isError,
    true,
  );
  const small = { content: [text('ok')], structuredContent: { a: 1 } };
  assert.equal(await limitToolResult(small, { maxTokens: 100 }, store), small);
});
