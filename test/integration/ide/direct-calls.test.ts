/**
 * The IDE server's direct path (core/ide/direct-calls.ts) gives the answers the SDK's path gives:
 * the same frames, sent by one raw agent to a server with the path and to one without, get
 * answers that are equal, for every read-only tool, for arguments the schema refuses, unknown
 * tools and fields, a task request and a call before `initialized`; and only the read-only calls
 * of an initialized agent take the path.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { WebSocket } from 'ws';
import { AUTH_HEADER } from '../../../src/core/ide/auth.js';
import { IdeServer } from '../../../src/core/ide/server.js';
import { nullLogger } from '../../../src/core/ports.js';
import { withDeadline } from '../../support/wait.js';
import { openSocket, readLocks } from './agent.js';
import { FakeEditor } from './fake-editor.js';

interface Side {
  server: IdeServer;
  ws: WebSocket;
  dir: string;
  answers: Map<unknown, unknown>;
  /** The text of each answer's frame, as it came off the wire. */
  frames: Map<unknown, string>;
  waiters: Map<unknown, () => void>;
}

const editor = new FakeEditor();
editor.diags = [
  {
    uri: 'file:///work/proj/a.ts',
    diagnostics: [
      {
        message: 'Type "x" ✓ is not assignable',
        severity: 'Error',
        range: { start: { line: 1, character: 2 }, end: { line: 1, character: 9 } },
        source: 'ts',
        code: 2322,
      },
    ],
  },
];
editor.selection = {
  text: 'const a = 1;',
  filePath: '/work/proj/a.ts',
  fileUrl: 'file:///work/proj/a.ts',
  selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 12 }, isEmpty: false },
};
editor.docs.set('/work/proj/a.ts', { isDirty: true, isUntitled: false });

const sides: Side[] = [];

async function side(directCalls: boolean): Promise<Side> {
  const dir = mkdtempSync(join(tmpdir(), `ide-direct-${directCalls}-`));
  const server = await IdeServer.start({
    editor,
    logger: nullLogger,
    ideName: 'direct-test',
    lockDir: dir,
    directCalls,
  });
  const lock = readLocks(dir)[0]!;
  const ws = await openSocket(lock.port, { [AUTH_HEADER]: lock.content.authToken });
  const s: Side = { server, ws, dir, answers: new Map(), frames: new Map(), waiters: new Map() };
  ws.on('message', (m) => {
    const text = String(m);
    const msg = JSON.parse(text) as { id?: unknown };
    if (msg.id === undefined) return;
    s.answers.set(msg.id, msg);
    s.frames.set(msg.id, text);
    s.waiters.get(msg.id)?.();
  });
  return s;
}

/** Sends the same frame to both sides; resolves with both answers. */
async function both(frame: Record<string, unknown>): Promise<[unknown, unknown]> {
  const got = sides.map(
    (s) =>
      new Promise<unknown>((resolve) => {
        s.waiters.set(frame.id, () => resolve(s.answers.get(frame.id)));
        s.ws.send(JSON.stringify(frame));
      }),
  );
  return (await withDeadline(Promise.all(got), `answers to ${JSON.stringify(frame)}`)) as [unknown, unknown];
}

let nextId = 0;
const call = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: ++nextId,
  method: 'tools/call',
  params,
  ...extra,
});

before(async () => {
  sides.push(await side(true), await side(false));
});

after(async () => {
  for (const s of sides) {
    s.ws.terminate();
    await s.server.dispose();
    rmSync(s.dir, { recursive: true, force: true });
  }
});

test('before initialize, both paths answer a call the same way (the SDK decides)', async () => {
  const [direct, sdk] = await both(call({ name: 'getWorkspaceFolders', arguments: {} }));
  assert.deepEqual(direct, sdk);
  assert.equal(sides[0]!.server.directAnswers(), 0);
});

test('after initialize: every case gets the same answer on both paths, and only read-only calls go direct', async () => {
  const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
  const [a, b] = await both({ jsonrpc: '2.0', id: ++nextId, method: 'initialize', params: init });
  assert.deepEqual(a, b);
  for (const s of sides) s.ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  // Initialization is seen by the server before the next frame (one socket, in order); a ping proves it.
  await both({ jsonrpc: '2.0', id: ++nextId, method: 'ping' });

  const direct: Record<string, unknown>[] = [
    call({ name: 'getDiagnostics', arguments: {} }),
    call({ name: 'getDiagnostics', arguments: { uri: '/work/proj/a.ts' } }),
    call({ name: 'getDiagnostics' }),
    call({ name: 'getCurrentSelection', arguments: {} }),
    call({ name: 'getLatestSelection', arguments: {} }),
    call({ name: 'getOpenEditors', arguments: {} }),
    call({ name: 'getWorkspaceFolders', arguments: { ignored: true } }),
    call({ name: 'checkDocumentDirty', arguments: { filePath: '/work/proj/a.ts' } }),
    call({ name: 'checkDocumentDirty', arguments: { filePath: '/not/open.ts' } }),
    call({ name: 'getWorkspaceFolders', arguments: {}, _meta: { progressToken: 'p1' } }),
    // A request in the 2026-07-28 era's envelope on a connection initialized in 2025-11-25.
    call({
      name: 'getWorkspaceFolders',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    }),
    { ...call({ name: 'getOpenEditors', arguments: {} }), id: 'string-id' },
  ];
  const viaSdk: Record<string, unknown>[] = [
    call({ name: 'checkDocumentDirty', arguments: {} }),
    call({ name: 'checkDocumentDirty', arguments: { filePath: 7 } }),
    call({ name: 'noSuchTool', arguments: {} }),
    call({ name: 'getWorkspaceFolders', arguments: [] }),
    call({ name: 'getWorkspaceFolders', arguments: {}, task: { ttl: 1000 } }),
    call({ name: 'saveDocument', arguments: { filePath: '/work/proj/a.ts' } }),
    call({ name: 42 }),
  ];
  for (const frame of [...direct, ...viaSdk]) {
    const [d, s] = await both(frame);
    assert.deepEqual(d, s, JSON.stringify(frame));
    // Byte for byte: key order and escapes too, not only the same JSON value.
    assert.equal(sides[0]!.frames.get(frame.id), sides[1]!.frames.get(frame.id), JSON.stringify(frame));
    assert.ok(
      (d as { result?: unknown; error?: unknown }).result ?? (d as { error?: unknown }).error,
      JSON.stringify(d),
    );
  }
  assert.equal(sides[0]!.server.directAnswers(), direct.length, 'the read-only calls took the direct path');
  assert.equal(sides[1]!.server.directAnswers(), 0, 'directCalls: false sends everything through the SDK');
});

test('requests sent back to back (one read on the server) all get their answers, in order per path, as the SDK gives them', async () => {
  const before = sides[0]!.server.directAnswers();
  // Read-only calls (direct, sent in one write per read) between calls the SDK answers later.
  const frames = Array.from({ length: 40 }, (_, i) =>
    i % 5 === 4
      ? call({ name: 'checkDocumentDirty', arguments: {} })
      : call({ name: i % 2 ? 'getOpenEditors' : 'getDiagnostics', arguments: {} }),
  );
  const order = sides.map(() => [] as unknown[]);
  const got = sides.map((s, k) => {
    const listen = (m: unknown): void => {
      const id = (JSON.parse(String(m)) as { id?: unknown }).id;
      if (frames.some((f) => f.id === id)) order[k]!.push(id);
    };
    s.ws.on('message', listen);
    return Promise.all(frames.map((f) => new Promise<void>((resolve) => s.waiters.set(f.id, resolve)))).finally(() =>
      s.ws.off('message', listen),
    );
  });
  // In one tick: the server, in this process, reads them only after all are written.
  for (const s of sides) for (const f of frames) s.ws.send(JSON.stringify(f));
  await withDeadline(Promise.all(got), 'answers to 40 requests sent back to back');
  for (const f of frames) assert.equal(sides[0]!.frames.get(f.id), sides[1]!.frames.get(f.id), JSON.stringify(f));
  const direct: unknown[] = frames.filter((_, i) => i % 5 !== 4).map((f) => f.id);
  assert.deepEqual(
    order[0]!.filter((id) => direct.includes(id)),
    direct,
    'direct answers leave in the order of their requests',
  );
  assert.equal(sides[0]!.server.directAnswers() - before, direct.length);
});
