/**
 * core/ide/answer-frame.ts builds the SDK's response frame for a JSON text result by hand: its bytes
 * must be the UTF-8 of `JSON.stringify` of the response the SDK sends, `{ result, jsonrpc, id }` in
 * that order, for every value, including the ones that make JSON.stringify do something of its own
 * (undefined and functions in arrays, toJSON, escapes, lone surrogates).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textResultFrame } from '../../../src/core/ide/answer-frame.js';

/** What the SDK path puts on the wire for this answer (its Protocol's key order, then ws's UTF-8). */
function sdkFrame(id: string | number, value: unknown): Buffer {
  const response = { result: { content: [{ type: 'text', text: JSON.stringify(value) }] }, jsonrpc: '2.0', id };
  return Buffer.from(JSON.stringify(response), 'utf8');
}

function diagnostics(files: number, odd: (f: number) => string): unknown[] {
  return Array.from({ length: files }, (_, f) => ({
    uri: `file:///work/proj/src/${odd(f)}${f}.ts`,
    diagnostics: Array.from({ length: 10 }, (_, d) => ({
      message: `Type '${odd(f + d)}' is not assignable to "number". \\ (${f}:${d})`,
      severity: (['Error', 'Warning', 'Info', 'Hint'] as const)[d % 4],
      range: { start: { line: d, character: 2 }, end: { line: d, character: 14 } },
      ...(d % 3 === 0 ? {} : { source: 'ts' }),
      code: d % 2 ? 2322 : `E${d}`,
    })),
  }));
}

const ODD = ['', 'é', '✓', '🙂', '\ud800', '\udc00x', '\u0001', '\n\t', '\u2028', '"', '\\', '</script>'];

const cases: [string, unknown][] = [
  ['a small object', { success: true, folders: [{ name: 'p', path: '/w/p "q"' }], rootPath: null }],
  ['an empty array', []],
  ['a large ASCII array', diagnostics(3000, () => 'plain')],
  ['a large array with non-ASCII, escapes and lone surrogates', diagnostics(3000, (i) => ODD[i % ODD.length]!)],
  [
    'a large array with holes, undefined, functions and symbols',
    [...Array(300).keys()].map((i) => [undefined, () => 1, Symbol('s'), null, i, 'x'][i % 6]),
  ],
  ['a sparse large array', Object.assign(new Array(600), { 7: { a: 1 }, 599: 'end' })],
  ['an array with its own toJSON', Object.assign([...Array(400).keys()], { toJSON: () => 'mine' })],
  [
    'a large array with an element that has toJSON',
    [...Array(400).keys()].map((i) => (i === 300 ? { toJSON: (k: string) => `key ${k}` } : { i })),
  ],
  ['a large array whose elements nest a toJSON', [...Array(400).keys()].map((i) => ({ d: new Date(i * 1e9), i }))],
  ['a large array of long strings', [...Array(300).keys()].map((i) => `${'x'.repeat(1000)}"${i}"✓`)],
];

for (const [what, value] of cases) {
  test(`the frame for ${what} is the SDK's, byte for byte`, () => {
    for (const id of [7, 'req-"1"', 0, 1.5]) {
      const got = Buffer.from(textResultFrame(id, value), 'utf8');
      const want = sdkFrame(id, value);
      assert.ok(
        got.equals(want),
        `${what}, id ${String(id)}: ${got.subarray(0, 200).toString()} … vs ${want.subarray(0, 200).toString()}`,
      );
    }
  });
}
