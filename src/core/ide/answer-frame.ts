/**
 * The frame the SDK server sends for a tool result of one text block holding `JSON.stringify(value)`,
 * built as one string without the response objects in between:
 * `{"result":{"content":[{"type":"text","text":…}]},"jsonrpc":"2.0","id":…}`. That is the SDK's key
 * order (its Protocol writes result, jsonrpc, id), so the bytes are what `JSON.stringify` of the
 * SDK's response gives (test/unit/ide/answer-frame.test.ts; test/integration/ide/direct-calls.test.ts
 * compares the two paths' frames).
 *
 * Serialising a large value piece by piece (each piece escaped and encoded while in the cache) was
 * tried for getDiagnostics of a workspace and measured level with this (bench `ide`): the three
 * passes (serialise, escape into the envelope, encode) are V8's and Node's native loops either way.
 */

const HEAD = '{"result":{"content":[{"type":"text","text":';
const TAIL = '}]},"jsonrpc":"2.0","id":';

/** The text of the SDK's answer `{ content: [{ type: 'text', text: JSON.stringify(value) }] }` to request `id`. */
export function textResultFrame(id: string | number, value: unknown): string {
  return HEAD + JSON.stringify(JSON.stringify(value)) + TAIL + JSON.stringify(id) + '}';
}
