/**
 * What the IDE server's transport puts on the wire: one text frame per message holding exactly the
 * UTF-8 of `JSON.stringify(message)`, for small and large messages, ASCII or not (a large ASCII frame
 * is handed to `ws` as its Latin-1 bytes, ws-transport.ts `frameData`: the same bytes).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { WebSocket, WebSocketServer } from 'ws';
import { WebSocketServerTransport } from '../../../src/core/ide/ws-transport.js';
import { withDeadline } from '../../support/wait.js';

let wss: WebSocketServer;
let transport: WebSocketServerTransport;
let peer: WebSocket;
const frames: { data: Buffer; isBinary: boolean }[] = [];
let onFrame: (() => void) | undefined;

before(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const accepted = new Promise<WebSocket>((r) => wss.once('connection', r));
  peer = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
  peer.on('message', (data: Buffer, isBinary) => {
    frames.push({ data, isBinary });
    onFrame?.();
  });
  await new Promise((r) => peer.once('open', r));
  transport = new WebSocketServerTransport(await accepted);
  await transport.start();
});

after(async () => {
  peer.close();
  await new Promise((r) => wss.close(r));
});

async function sent(message: JSONRPCMessage): Promise<{ data: Buffer; isBinary: boolean }> {
  const got = withDeadline(new Promise<void>((r) => (onFrame = r)), 'the frame');
  await transport.send(message);
  await got;
  return frames.shift()!;
}

const result = (text: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id: 7,
  result: { content: [{ type: 'text', text }] },
});

for (const [what, text] of [
  ['small', JSON.stringify({ a: 'b "quoted" \\ back' })],
  [
    'large ASCII with quotes and backslashes',
    JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ m: `"${i}"\\` }))),
  ],
  ['large with non-ASCII', `${'x'.repeat(100_000)} é ✓ 🙂`],
  ['large with a lone surrogate and control characters', `${'y'.repeat(100_000)}\ud800\u0001\n`],
] as const) {
  test(`a ${what} text result is one text frame of exactly its JSON's UTF-8`, async () => {
    const message = result(text);
    const frame = await sent(message);
    assert.equal(frame.isBinary, false);
    assert.ok(frame.data.equals(Buffer.from(JSON.stringify(message), 'utf8')));
  });
}
